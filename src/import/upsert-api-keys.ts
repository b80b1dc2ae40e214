import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { hashApiKey } from '../domain/api-key-hash.js';
import { fromExcluded } from './from-excluded.js';
import type { CalendarApiKey } from './import-format.js';
import { statementBatches } from './statement-batches.js';

/** Writes API keys by key; only the key's hash and its first eight characters are stored. */
export async function upsertApiKeys(trx: Transaction<Database>, apiKeys: readonly CalendarApiKey[]): Promise<void> {
  for (const batch of statementBatches(apiKeys, 4)) {
    await trx
      .insertInto('api_keys')
      .values(batch.map((k) => ({ key_hash: hashApiKey(k.key), key_prefix: k.key.slice(0, 8), application: k.application, revoked: k.revoked })))
      .onConflict((oc) => oc.column('key_hash').doUpdateSet(fromExcluded(['key_prefix', 'application', 'revoked'])))
      .execute();
  }
}
