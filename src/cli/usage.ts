import type { DeprecatedUseReportRow } from '../db/repositories/deprecated-uses.js';
import type { UsageReportRow } from '../db/repositories/usage-counts.js';
import { defineCommand } from './command.js';
import { exactOperands, flag, optionText, wholeNumber } from './command-line.js';
import { withMigratedDatabase } from './with-migrated-database.js';

const MAX_DAYS = 3660;

function caller(row: Pick<UsageReportRow, 'keyHash' | 'application' | 'keyPrefix'>): string {
  if (row.keyHash === '') return 'anonymous';
  if (row.application) return `${row.application} (${row.keyPrefix ?? '?'}…)`;
  // The key was deleted after it was counted.
  return `deleted key ${row.keyHash.slice(0, 12)}…`;
}

/** Columns padded to their widest cell; those named in `right` aligned right (numbers). */
function table(header: string[], cells: string[][], right: ReadonlySet<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (right.has(i) ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...cells.map(line)].join('\n') + '\n';
}

function usageTable(rows: UsageReportRow[]): string {
  const cells = rows.map((r) => [r.day, caller(r), r.clientId || '-', r.pageOrigin || '-', String(r.requests)]);
  return table(['day', 'caller', 'client id', 'page origin', 'requests'], cells, new Set([4]));
}

function deprecatedTable(rows: DeprecatedUseReportRow[]): string {
  const cells = rows.map((r) => [r.coordinate, caller(r), r.clientId || '-', r.pageOrigin || '-', String(r.requests), r.firstDay, r.lastDay]);
  return table(['deprecated', 'caller', 'client id', 'page origin', 'requests', 'first day', 'last day'], cells, new Set([4]));
}

/** `calendar usage`: the counts the service gathered in `usage_counts`. */
export const usageCommand = defineCommand({
  name: 'usage',
  summary: 'request counts per key, client id and page origin; who still uses deprecated fields',
  description: `
Prints the request counts per day, application key, client id (X-Client-Id) and page origin
(X-Page-Url), newest day first. Requests without a key, or with an unknown or revoked one, are
counted as anonymous. Counts are written by the running service every few seconds.

With --deprecated: who still uses the deprecated parts of the schema (fields selected, arguments and
input fields given, enum values sent, in the document or its variables), per schema coordinate
(\`Filter.sortBy\`) and caller, summed over the days, with the first and last day of use; then the
deprecated coordinates of schema.graphql that no request used in those days (docs/regenerate.md).`,
  options: {
    days: { value: 'N', description: `the last N days, today included, 1 to ${MAX_DAYS} (default 30)` },
    deprecated: { description: 'uses of deprecated schema coordinates instead of request counts' },
    json: { description: 'one JSON array instead of a table' },
  },
  parse: (line) => {
    exactOperands(line, []);
    return { days: wholeNumber('days', optionText(line, 'days', '30'), 1, MAX_DAYS), deprecated: flag(line, 'deprecated'), json: flag(line, 'json') };
  },
  async run({ days, deprecated, json }) {
    const { clockFrom } = await import('../config.js');
    const { osloWallClock } = await import('../domain/oslo-time.js');
    // A database the service never ran on has no table yet: migrating first gives an empty report, not an error.
    return withMigratedDatabase(async (db, config) => {
      const since = osloWallClock(new Date(clockFrom(config)().getTime() - (days - 1) * 86_400_000)).date;
      if (deprecated) {
        const { listDeprecatedUses } = await import('../db/repositories/deprecated-uses.js');
        return printDeprecatedUses(await listDeprecatedUses(db, { since }), since, json);
      }
      const { listUsageCounts } = await import('../db/repositories/usage-counts.js');
      const rows = await listUsageCounts(db, { since });
      if (json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      else if (rows.length === 0) process.stdout.write(`No requests counted since ${since}.\n`);
      else process.stdout.write(usageTable(rows));
      return 0;
    });
  },
});

/** The uses, then the schema's deprecated coordinates nobody used since `since` (safe to remove, as far as this service saw). */
async function printDeprecatedUses(rows: DeprecatedUseReportRow[], since: string, json: boolean): Promise<number> {
  if (json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const { buildSchema } = await import('graphql');
  const { loadSchemaSource } = await import('../schema/executable-schema.js');
  const { deprecatedCoordinates } = await import('../schema/deprecated-uses.js');
  const used = new Set(rows.map((r) => r.coordinate));
  const unused = deprecatedCoordinates(buildSchema(loadSchemaSource())).filter((c) => !used.has(c));
  if (rows.length === 0) process.stdout.write(`No request used a deprecated coordinate since ${since}.\n`);
  else process.stdout.write(deprecatedTable(rows));
  if (unused.length > 0) process.stdout.write(`Deprecated and not used since ${since}: ${unused.join(', ')}\n`);
  return 0;
}
