import { CALLER_COST_DAYS, type TopCallerRow } from '../db/repositories/caller-costs.js';
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

/** Columns padded to their widths; those from `rightFrom` on (numbers) aligned right. */
function table(header: readonly string[], cells: readonly string[][], rightFrom: number): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((v, i) => (i >= rightFrom ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
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

/** `calendar usage`: the counts the service gathered in `usage_counts`, or with `--callers` the costliest callers. */
export const usageCommand = defineCommand({
  name: 'usage',
  summary: 'request counts per key, client id and page origin; the costliest callers',
  description: `
Prints the request counts per day, application key, client id (X-Client-Id) and page origin
(X-Page-Url), newest day first. Requests without a key, or with an unknown or revoked one, are
counted as anonymous. Counts are written by the running service every few seconds.

With --callers: the callers that cost the service the most over the days, busiest first. A caller
is a valid key (shown by its application) or, without one, a client address (IPv6 by its /64; behind
a proxy only with TRUST_PROXY). Points are what its executions cost (docs/transport.md, Budgets;
cache hits cost nothing), executions how many ran, refused how many were answered 429. Addresses are
kept ${CALLER_COST_DAYS} days.`,
  options: {
    days: { value: 'N', description: `the last N days, today included, 1 to ${MAX_DAYS} (default 30)` },
    callers: { description: 'the costliest callers instead of the request counts' },
    top: { value: 'N', description: `with --callers: how many callers, 1 to ${MAX_TOP} (default 20)` },
    json: { description: 'one JSON array instead of a table' },
  },
  parse: (line) => {
    exactOperands(line, []);
    const callers = flag(line, 'callers');
    const topText = optionText(line, 'top');
    if (topText !== undefined && !callers) throw new UsageError('--top goes with --callers.');
    return {
      days: wholeNumber('days', optionText(line, 'days', '30'), 1, MAX_DAYS),
      json: flag(line, 'json'),
      top: callers ? wholeNumber('top', topText ?? '20', 1, MAX_TOP) : undefined,
    };
  },
  async run({ days, json, top }) {
    const { clockFrom } = await import('../config.js');
    const { osloWallClock } = await import('../domain/oslo-time.js');
    // A database the service never ran on has no table yet: migrating first gives an empty report, not an error.
    return withMigratedDatabase(async (db, config) => {
      const since = osloWallClock(new Date(clockFrom(config)().getTime() - (days - 1) * 86_400_000)).date;
      if (top !== undefined) {
        const { listTopCallers } = await import('../db/repositories/caller-costs.js');
        const rows = await listTopCallers(db, { since, limit: top });
        if (json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        else if (rows.length === 0) process.stdout.write(`No executions counted since ${since}.\n`);
        else process.stdout.write(`Costliest callers since ${since}:\n${callersTable(rows)}`);
        return 0;
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
