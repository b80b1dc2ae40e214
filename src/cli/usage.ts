import { parseArgs } from 'node:util';
import { clockFrom, readConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/open-database.js';
import { listUsageCounts, type UsageReportRow } from '../db/repositories/usage-counts.js';
import { osloWallClock } from '../domain/oslo-time.js';

const HELP = `Usage: calendar usage [--days N] [--json]

Prints the request counts per day, application key, client id (X-Client-Id) and page origin
(X-Page-Url), newest day first. Requests without a key, or with an unknown or revoked one, are
counted as anonymous. Counts are written by the running service every few seconds.

  --days N   the last N days, today included (default 30)
  --json     one JSON array instead of a table
`;

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
export async function runUsage(args: string[]): Promise<number> {
  let values: { days?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({ args, options: { days: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    process.stderr.write(`calendar usage: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const days = values.days === undefined ? 30 : Number(values.days);
  if (!Number.isInteger(days) || days < 1) {
    process.stderr.write(`calendar usage: --days must be a whole number of at least 1, not "${values.days}"\n`);
    return 2;
  }
  const config = readConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.CALENDAR_DATA_DIR, schema: config.DATABASE_SCHEMA });
  try {
    // A database the service never ran on has no table yet: an empty report, not an error.
    await migrateToLatest(database.db);
    const since = osloWallClock(new Date(clockFrom(config)().getTime() - (days - 1) * 86_400_000)).date;
    const rows = await listUsageCounts(database.db, { since });
    if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else if (rows.length === 0) process.stdout.write(`No requests counted since ${since}.\n`);
    else process.stdout.write(table(rows));
    return 0;
  } finally {
    await database.close();
  }
}
