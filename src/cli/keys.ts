import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { defineCommand, type CommandGroup } from './command.js';
import { exactOperands, optionText, UsageError } from './command-line.js';
import { withMigratedDatabase } from './with-migrated-database.js';

const PREFIX_LENGTH = 8;

/** `hsk_` and 32 url-safe characters (24 random bytes). */
function newKey(): string {
  return `hsk_${randomBytes(24).toString('base64url')}`;
}

const addKey = defineCommand({
  name: 'keys add',
  summary: 'register a key (a new random one unless given); prints it once',
  description: `
Registers an application key and prints it alone on stdout (scripts can capture it). Only its
SHA-256 hash and its first ${PREFIX_LENGTH} characters are stored: keep the key when it is shown.`,
  options: {
    application: { value: 'NAME', required: true, description: 'the application the key identifies' },
    key: { value: 'hsk_...', description: 'register this key instead of a new random one' },
  },
  parse: async (line) => {
    exactOperands(line, []);
    if (optionText(line, 'application')?.trim() === '') throw new UsageError('--application must not be empty');
    const { ApiKeySchema } = await import('../import/import-format.js');
    const parsed = ApiKeySchema.safeParse({ key: optionText(line, 'key') ?? newKey(), application: optionText(line, 'application') });
    if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('; '));
    return { key: parsed.data.key, application: parsed.data.application };
  },
  run: ({ key, application }) =>
    withMigratedDatabase(async ({ db }) => {
      const { hashApiKey } = await import('../domain/api-key-hash.js');
      const keyHash = hashApiKey(key);
      const existing = await db.selectFrom('api_keys').select('application').where('key_hash', '=', keyHash).executeTakeFirst();
      if (existing) {
        process.stderr.write(`calendar keys add: this key is already registered (application "${existing.application}")\n`);
        return 1;
      }
      await db.insertInto('api_keys').values({ key_hash: keyHash, key_prefix: key.slice(0, PREFIX_LENGTH), application }).execute();
      // The key alone on stdout, so that scripts can capture it; only its hash is stored.
      process.stdout.write(`${key}\n`);
      process.stderr.write(`Added a key for "${application}". Keep it now: it is stored hashed and cannot be shown again.\n`);
      return 0;
    }),
});

const revokeKey = defineCommand({
  name: 'keys revoke',
  summary: `revoke a key, by the key or its ${PREFIX_LENGTH}-character prefix`,
  operands: 'KEY_OR_PREFIX',
  description: `
Marks a key revoked: requests with it count as anonymous from then on. Give the whole key, or the
prefix \`calendar keys list\` shows when that prefix names one key only.`,
  options: {},
  parse: (line) => {
    const [given] = exactOperands(line, ['KEY_OR_PREFIX']);
    return { given: given! };
  },
  run: ({ given }) =>
    withMigratedDatabase(async ({ db }) => {
      const { hashApiKey } = await import('../domain/api-key-hash.js');
      // The full key is matched by its hash; anything else by the stored prefix.
      let matches = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', hashApiKey(given)).execute();
      if (matches.length === 0) matches = await db.selectFrom('api_keys').selectAll().where('key_prefix', '=', given).execute();
      const [match] = matches;
      if (!match) {
        process.stderr.write(`calendar keys revoke: no key matches "${given}"\n`);
        return 1;
      }
      if (matches.length > 1) {
        const applications = matches.map((m) => `"${m.application}"`).join(', ');
        process.stderr.write(`calendar keys revoke: ${matches.length} keys start with "${given}" (${applications}); give the whole key\n`);
        return 1;
      }
      if (match.revoked) {
        process.stdout.write(`Key ${match.key_prefix}… of "${match.application}" was already revoked.\n`);
        return 0;
      }
      await db.updateTable('api_keys').set({ revoked: true }).where('key_hash', '=', match.key_hash).execute();
      process.stdout.write(`Revoked key ${match.key_prefix}… of "${match.application}".\n`);
      return 0;
    }),
});

async function listKeys(db: Kysely<Database>): Promise<number> {
  const { formatOsloTimestamp } = await import('../domain/oslo-time.js');
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

const listKeysCommand = defineCommand({
  name: 'keys list',
  summary: 'list keys (prefix, application, revoked, created)',
  options: {},
  parse: (line) => {
    exactOperands(line, []);
  },
  run: () => withMigratedDatabase(({ db }) => listKeys(db)),
});

/** `calendar keys add|revoke|list`: application keys, stored as SHA-256 hashes. */
export const keysCommand: CommandGroup = {
  name: 'keys',
  summary: 'manage application keys (add, revoke, list)',
  description: `
Application keys identify the page or app behind a request (identity, not security: see
docs/transport.md). They are stored as SHA-256 hashes.`,
  actions: { add: addKey, revoke: revokeKey, list: listKeysCommand },
};
