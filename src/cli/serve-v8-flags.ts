/**
 * The V8 flags `calendar serve` is meant to run with: `npm start` passes them, and the cluster
 * primary gives them to every worker it forks (unless the operator chose otherwise).
 *
 * `--max-semi-space-size=8`: a young generation of two 8 MB semi-spaces. Node 22 and 24 let V8 grow
 * it to 32 MB semi-spaces (64 MB in all here); a young-generation collection then comes once every
 * ten or so pages of 1 000 events and copies 8–13 MB that are still reachable at that moment (the page
 * in flight, and objects of finished pages that promoted garbage still points to), a 30–90 ms pause on
 * one core. With 8 MB it comes about once a page, copies 1–2 MB and pauses 4–6 ms: the p95 of a
 * `changes` or `events` page of 1 000 halves, its p50 and the CPU per page do not move
 * (docs/performance.md, "Young-generation size").
 */
export const SERVE_V8_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

const SEMI_SPACE_FLAG = /^--max[-_]semi[-_]space[-_]size(?:=(\d+))?$/;

/** The flags of a command line (`process.execArgv`, or NODE_OPTIONS split on spaces). */
function flagsOf(execArgv: readonly string[], nodeOptions: string): string[] {
  return [...nodeOptions.split(/\s+/).filter(Boolean), ...execArgv];
}

/**
 * The semi-space cap (MB) this process runs with: the last `--max-semi-space-size` of NODE_OPTIONS
 * and the command line (the command line wins, as in Node); null when neither sets one (V8's sizing).
 */
export function semiSpaceCapMb(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env['NODE_OPTIONS'] ?? ''): number | null {
  const flags = flagsOf(execArgv, nodeOptions);
  let cap: number | null = null;
  flags.forEach((flag, i) => {
    const match = SEMI_SPACE_FLAG.exec(flag);
    if (!match) return;
    // `--max-semi-space-size 16` (value as the next word) as well as `--max-semi-space-size=16`.
    const value = match[1] ?? flags[i + 1];
    if (value !== undefined && /^\d+$/.test(value)) cap = Number(value);
  });
  return cap;
}

/**
 * A forked worker's flags: this process's own, plus SERVE_V8_FLAGS when neither they nor
 * NODE_OPTIONS (which the worker inherits) set a young-generation size of their own.
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env['NODE_OPTIONS'] ?? ''): string[] {
  return semiSpaceCapMb(execArgv, nodeOptions) === null ? [...execArgv, ...SERVE_V8_FLAGS] : [...execArgv];
}
