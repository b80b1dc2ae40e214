import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

export interface ApiKeyIdentity {
  keyHash: string;
  application: string;
  revoked: boolean;
}

/** The key with this hash (hex SHA-256 of the key), revoked or not; undefined when unknown. */
export async function findApiKeyByHash(db: Kysely<Database>, keyHash: string): Promise<ApiKeyIdentity | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .select(['key_hash', 'application', 'revoked'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
  return row ? { keyHash: row.key_hash, application: row.application, revoked: row.revoked } : undefined;
}
