/**
 * The V8 flags `calendar serve` runs with, however it is started: `npm start` passes them, and a
 * `calendar serve` started without them restarts itself in place with them (restartWithServeV8Flags;
 * the workers of WORKERS > 1 inherit them from their primary). A size the operator chose is kept.
 *
 * `--max-semi-space-size=8`: a young generation of two 8 MB semi-spaces. Node 22 and 24 let V8 grow
 * it to 32 MB semi-spaces (64 MB in all here); a young-generation collection then comes once every
 * ten or so pages of 1 000 events and copies 8–13 MB that are still reachable at that moment (the page
 * in flight, and objects of finished pages that promoted garbage still points to), a 30–90 ms pause on
 * one core. With 8 MB it comes about once a page, copies 1–2 MB and pauses 4–6 ms: the p95 of a
 * `changes` or `events` page of 1 000 about halves; its p50 and the CPU per page did not move beyond
 * the measuring machine's noise (docs/performance.md, "Young-generation size"; bench/young-generation.ts).
 */
export const SERVE_V8_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

const SEMI_SPACE_FLAG = /^--max[-_]semi[-_]space[-_]size(?:=(\d+))?$/;

/**
 * The semi-space cap (MB) this process runs with: the last `--max-semi-space-size` of NODE_OPTIONS
 * and the command line (the command line wins, as in Node); null when neither sets one (V8's sizing).
 */
export function semiSpaceCapMb(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env['NODE_OPTIONS'] ?? ''): number | null {
  const flags = [...nodeOptions.split(/\s+/).filter(Boolean), ...execArgv];
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
 * `calendar serve` started without a young-generation size (`node bin/calendar.js serve`, `npx
 * calendar serve`, a container's command): the process starts again with SERVE_V8_FLAGS through
 * execve, so it keeps its pid (a process manager, a container and a parent waiting for it see one
 * process) and nothing is left behind. Called first, before anything is opened or written. No restart
 * where the operator chose a size (`--max-semi-space-size=0` is V8's own sizing), nor without
 * `process.execve` (Windows).
 */
export function restartWithServeV8Flags(): void {
  if (typeof process.execve !== 'function' || semiSpaceCapMb() !== null) return;
  process.execve(process.execPath, [process.execPath, ...SERVE_V8_FLAGS, ...process.execArgv, ...process.argv.slice(1)], process.env);
}
