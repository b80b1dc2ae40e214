// PostgreSQL allows 65535 bind parameters per statement; stay below it with room to spare.
const MAX_PARAMETERS = 60_000;

/** Rows in groups small enough for one statement with `columns` bind parameters per row. */
export function statementBatches<T>(items: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
