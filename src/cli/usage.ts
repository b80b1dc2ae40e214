import type { UsageReportRow } from '../db/repositories/usage-counts.js';
import { defineCommand } from './command.js';
import { exactOperands, flag, optionText, wholeNumber } from './command-line.js';
import { withMigratedDatabase } from './with-migrated-database.js';

const MAX_DAYS = 3660;

function caller(row: UsageReportRow): string {
  if (row.keyHash === '') return 'anonymous';
  if (row.application) return `${row.application} (${row.keyPrefix ?? '?'}…)`;
  // The key was deleted after it was counted.
  return `deleted key ${row.keyHash.slice(0, 12)}…`;
}

function table(rows: UsageReportRow[]): string {
  const header = ['day', 'caller', 'client id', 'page origin', 'requests'];
  const cells = rows.map((r) => [r.day, caller(r), r.clientId || '-', r.pageOrigin || '-', String(r.requests)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ');
  return [line(header), ...cells.map(line)].join('\n') + '\n';
}

/** `calendar usage`: the counts the service gathered in `usage_counts`. */
export const usageCommand = defineCommand({
  name: 'usage',
  summary: 'request counts per key, client id and page origin',
  description: `
Prints the request counts per day, application key, client id (X-Client-Id) and page origin
(X-Page-Url), newest day first. Requests without a key, or with an unknown or revoked one, are
counted as anonymous. Counts are written by the running service every few seconds.`,
  options: {
    days: { value: 'N', description: `the last N days, today included, 1 to ${MAX_DAYS} (default 30)` },
    json: { description: 'one JSON array instead of a table' },
  },
  parse: (line) => {
    exactOperands(line, []);
    return { days: wholeNumber('days', optionText(line, 'days', '30'), 1, MAX_DAYS), json: flag(line, 'json') };
  },
  async run({ days, json }) {
    const { clockFrom } = await import('../config.js');
    const { listUsageCounts } = await import('../db/repositories/usage-counts.js');
    const { osloWallClock } = await import('../domain/oslo-time.js');
    // A database the service never ran on has no table yet: migrating first gives an empty report, not an error.
    return withMigratedDatabase(async (db, config) => {
      const since = osloWallClock(new Date(clockFrom(config)().getTime() - (days - 1) * 86_400_000)).date;
      const rows = await listUsageCounts(db, { since });
      if (json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      else if (rows.length === 0) process.stdout.write(`No requests counted since ${since}.\n`);
      else process.stdout.write(table(rows));
      return 0;
    });
  },
});
