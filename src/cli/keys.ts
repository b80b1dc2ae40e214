import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { readConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/open-database.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { hashApiKey } from '../domain/api-key-hash.js';
import { formatOsloTimestamp } from '../domain/oslo-time.js';
import { ApiKeySchema } from '../import/import-format.js';

const USAGE =
  'Usage:\n' +
  '  calendar keys add --application NAME [--key hsk_...]   register a key (a new random one unless given)\n' +
  '  calendar keys revoke KEY_OR_PREFIX                      revoke a key, by the key or its 8-character prefix\n' +
  '  calendar keys list                                      list keys (prefix, application, revoked, created)\n';

class UsageError extends Error {}

const PREFIX_LENGTH = 8;

/** `hsk_` and 32 url-safe characters (24 random bytes). */
function newKey(): string {
  return `hsk_${randomBytes(24).toString('base64url')}`;
}

async function addKey(db: Kysely<Database>, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { application: { type: 'string' }, key: { type: 'string' } }, allowPositionals: false });
  if (!values.application) throw new UsageError('--application NAME is required');
  const parsed = ApiKeySchema.safeParse({ key: values.key ?? newKey(), application: values.application });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const { key, application } = parsed.data;
  const keyHash = hashApiKey(key);
  const existing = await db.selectFrom('api_keys').select('application').where('key_hash', '=', keyHash).executeTakeFirst();
  if (existing) {
    process.stderr.write(`calendar keys: this key is already registered (application "${existing.application}")\n`);
    return 1;
  }
  await db.insertInto('api_keys').values({ key_hash: keyHash, key_prefix: key.slice(0, PREFIX_LENGTH), application }).execute();
  // The key alone on stdout, so that scripts can capture it; only its hash is stored.
  process.stdout.write(`${key}\n`);
  process.stderr.write(`Added a key for "${application}". Keep it now: it is stored hashed and cannot be shown again.\n`);
  return 0;
}

async function revokeKey(db: Kysely<Database>, args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
  const [given, ...rest] = positionals;
  if (given === undefined || rest.length > 0) throw new UsageError('give one KEY_OR_PREFIX');
  // The full key is matched by its hash; anything else by the stored prefix.
  let matches = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', hashApiKey(given)).execute();
  if (matches.length === 0) matches = await db.selectFrom('api_keys').selectAll().where('key_prefix', '=', given).execute();
  const [match] = matches;
  if (!match) {
    process.stderr.write(`calendar keys: no key matches "${given}"\n`);
    return 1;
  }
  if (matches.length > 1) {
    const applications = matches.map((m) => `"${m.application}"`).join(', ');
    process.stderr.write(`calendar keys: ${matches.length} keys start with "${given}" (${applications}); give the whole key\n`);
    return 1;
  }
  if (match.revoked) {
    process.stdout.write(`Key ${match.key_prefix}… of "${match.application}" was already revoked.\n`);
    return 0;
  }
  await db.updateTable('api_keys').set({ revoked: true }).where('key_hash', '=', match.key_hash).execute();
  process.stdout.write(`Revoked key ${match.key_prefix}… of "${match.application}".\n`);
  return 0;
}

async function listKeys(db: Kysely<Database>): Promise<number> {
  const keys = await db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('application').execute();
  if (keys.length === 0) {
    process.stdout.write('No keys.\n');
    return 0;
  }
  const rows = [
    ['PREFIX', 'APPLICATION', 'REVOKED', 'CREATED'],
    ...keys.map((k) => [k.key_prefix, k.application, k.revoked ? 'yes' : 'no', formatOsloTimestamp(new Date(k.created_at))]),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const row of rows) {
    process.stdout.write(`${row.map((cell, i) => (i < widths.length ? cell.padEnd(widths[i] ?? 0) : cell)).join('  ')}\n`);
  }
  return 0;
}

/** `calendar keys add|revoke|list`: application keys, stored as SHA-256 hashes. */
export async function runKeys(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  const actions: Record<string, (db: Kysely<Database>, args: string[]) => Promise<number>> = {
    add: addKey,
    revoke: revokeKey,
    list: (db) => listKeys(db),
  };
  const run = action === undefined ? undefined : actions[action];
  if (!run) {
    const problem = action === undefined ? 'missing action' : action === '--help' || action === '-h' ? null : `unknown action "${action}"`;
    if (problem === null) {
      process.stdout.write(USAGE);
      return 0;
    }
    process.stderr.write(`calendar keys: ${problem}\n${USAGE}`);
    return 2;
  }
  const config = readConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.CALENDAR_DATA_DIR, schema: config.DATABASE_SCHEMA });
  try {
    await migrateToLatest(database.db);
    return await run(database.db, rest);
  } catch (error) {
    // parseArgs reports unknown options with a TypeError carrying an ERR_PARSE_ARGS_* code.
    const usage = error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
    if (!usage) throw error;
    process.stderr.write(`calendar keys ${action}: ${error.message}\n${USAGE}`);
    return 2;
  } finally {
    await database.close();
  }
}
