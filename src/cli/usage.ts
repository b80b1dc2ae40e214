import { CALLER_COST_DAYS } from '../db/caller-cost-retention.js';
import type { TopCallerRow } from '../db/repositories/caller-costs.js';
import type { DeprecatedUseReportRow } from '../db/repositories/deprecated-uses.js';
import type { UsageReportRow } from '../db/repositories/usage-counts.js';
import { defineCommand } from './command.js';
import { exactOperands, flag, optionText, UsageError, wholeNumber } from './command-line.js';
import { withMigratedDatabase } from './with-migrated-database.js';

const MAX_DAYS = 3660;
const MAX_TOP = 1000;

function caller(row: Pick<UsageReportRow, 'keyHash' | 'application' | 'keyPrefix'>): string {
  if (row.keyHash === '') return 'anonymous';
  if (row.application) return `${row.application} (${row.keyPrefix ?? '?'}…)`;
  // The key was deleted after it was counted.
  return `deleted key ${row.keyHash.slice(0, 12)}…`;
}

/** A caller of `--callers`: its key's application, or its address (IPv6: its /64). */
function costCaller(row: TopCallerRow): string {
  if (row.caller === '(other)') return '(other callers, together)';
  if (row.keyHash !== '') return caller({ keyHash: row.keyHash, application: row.application, keyPrefix: row.keyPrefix });
  return row.caller.replace(/^address:/, '');
}

/** Columns padded to their widths; those from `rightFrom` up to `rightTo` (numbers) aligned right. */
function table(header: readonly string[], cells: readonly string[][], rightFrom: number, rightTo = header.length): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const right = (i: number) => i >= rightFrom && i < rightTo;
  const line = (c: readonly string[]) => c.map((v, i) => (right(i) ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...cells.map(line)].join('\n') + '\n';
}

function countsTable(rows: UsageReportRow[]): string {
  const cells = rows.map((r) => [r.day, caller(r), r.clientId || '-', r.pageOrigin || '-', String(r.requests)]);
  return table(['day', 'caller', 'client id', 'page origin', 'requests'], cells, 4);
}

function callersTable(rows: TopCallerRow[]): string {
  const cells = rows.map((r) => [costCaller(r), r.keyHash === '' ? (r.caller === '(other)' ? '-' : 'anonymous') : 'key', String(r.points), String(r.executions), String(r.refused)]);
  return table(['caller', 'class', 'points', 'executions', 'refused'], cells, 2);
}

function deprecatedTable(rows: DeprecatedUseReportRow[]): string {
  const cells = rows.map((r) => [r.coordinate, caller(r), r.clientId || '-', r.pageOrigin || '-', String(r.requests), r.firstDay, r.lastDay]);
  return table(['deprecated', 'caller', 'client id', 'page origin', 'requests', 'first day', 'last day'], cells, 4, 5);
}

/** `calendar usage`: the counts the service gathered in `usage_counts`; with `--callers` the costliest callers, with `--deprecated` who uses deprecated fields. */
export const usageCommand = defineCommand({
  name: 'usage',
  summary: 'request counts per key, client id and page origin; the costliest callers; who still uses deprecated fields',
  description: `
Prints the request counts per day, application key, client id (X-Client-Id) and page origin
(X-Page-Url), newest day first. Requests without a key, or with an unknown or revoked one, are
counted as anonymous. Counts are written by the running service every few seconds.

With --callers: the callers that cost the service the most over the days, busiest first. A caller
is a valid key (shown by its application) or, without one, a client address (IPv6 by its /64; behind
a proxy only with TRUST_PROXY). Points are what its executions cost (docs/transport.md, Budgets;
cache hits cost nothing), executions how many ran, refused how many were answered 429. Addresses are
kept ${CALLER_COST_DAYS} days.

With --deprecated: who still uses the deprecated parts of the schema (fields selected, arguments and
input fields given, enum values sent, in the document or its variables), per schema coordinate
(\`Filter.sortBy\`) and caller, summed over the days, with the first and last day of use; then the
deprecated coordinates of schema.graphql that no request used in those days (docs/regenerate.md).`,
  options: {
    days: { value: 'N', description: `the last N days, today included, 1 to ${MAX_DAYS} (default 30)` },
    callers: { description: 'the costliest callers instead of the request counts' },
    top: { value: 'N', description: `with --callers: how many callers, 1 to ${MAX_TOP} (default 20)` },
    deprecated: { description: 'uses of deprecated schema coordinates instead of the request counts' },
    json: { description: 'one JSON array instead of a table' },
  },
  parse: (line) => {
    exactOperands(line, []);
    const callers = flag(line, 'callers');
    const topText = optionText(line, 'top');
    const deprecated = flag(line, 'deprecated');
    if (topText !== undefined && !callers) throw new UsageError('--top goes with --callers.');
    if (callers && deprecated) throw new UsageError('--callers and --deprecated are two reports: give one.');
    return {
      days: wholeNumber('days', optionText(line, 'days', '30'), 1, MAX_DAYS),
      json: flag(line, 'json'),
      deprecated,
      top: callers ? wholeNumber('top', topText ?? '20', 1, MAX_TOP) : undefined,
    };
  },
  async run({ days, json, top, deprecated }) {
    const { clockFrom } = await import('../config.js');
    const { osloWallClock } = await import('../domain/oslo-time.js');
    // A database the service never ran on has no table yet: migrating first gives an empty report, not an error.
    return withMigratedDatabase(async ({ db }, config) => {
      const since = osloWallClock(new Date(clockFrom(config)().getTime() - (days - 1) * 86_400_000)).date;
      if (top !== undefined) {
        const { listTopCallers } = await import('../db/repositories/caller-costs.js');
        const rows = await listTopCallers(db, { since, limit: top });
        if (json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        else if (rows.length === 0) process.stdout.write(`No executions counted since ${since}.\n`);
        else process.stdout.write(`Costliest callers since ${since}:\n${callersTable(rows)}`);
        return 0;
      }
      if (deprecated) {
        const { listDeprecatedUses } = await import('../db/repositories/deprecated-uses.js');
        return printDeprecatedUses(await listDeprecatedUses(db, { since }), since, json);
      }
      const { listUsageCounts } = await import('../db/repositories/usage-counts.js');
      const rows = await listUsageCounts(db, { since });
      if (json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      else if (rows.length === 0) process.stdout.write(`No requests counted since ${since}.\n`);
      else process.stdout.write(countsTable(rows));
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
