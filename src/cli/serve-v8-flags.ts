/**
 * The V8 flags `calendar serve` should run with. They are given where the process is launched, as
 * node's own flags must be: `npm start` passes them, bin/calendar.js's shebang does (`npx calendar
 * serve`, `./bin/calendar.js serve`), a container's command lists them (docs/operating.md, "Node
 * flags"), and a primary of WORKERS > 1 adds those it lacks for its workers (workerExecArgv). A
 * `calendar serve` started without them (`node bin/calendar.js serve`) says so once and runs with
 * V8's defaults. A flag the operator set is kept as set (`--max-semi-space-size=0` is V8's own
 * sizing; `--allocation-site-pretenuring` keeps pretenuring on).
 *
 * `--max-semi-space-size=16`: a young generation of two 16 MB semi-spaces. Node 22 and 24 let V8 grow
 * it to 32 MB semi-spaces (64 MB in all here); a young-generation collection then comes once every
 * ten or so pages of 1 000 events and copies 8–13 MB that are still reachable at that moment (the page
 * in flight, and objects of finished pages that promoted garbage still points to), a 30–90 ms pause on
 * one core; capped, it comes about every page or two, copies 2–4 MB and pauses a few ms, and the p95 of
 * a `changes` or `events` page of 1 000 about halves. 8 MB did that as well for large pages, but under
 * many small requests at once (50 cold `events` pages in flight) every waiting request's objects
 * outlived two collections and were promoted: 34 KB per request against 7.6 KB with 16 MB, a full
 * collection every 3 s against none in 10 s, and 1.1–1.3x the CPU per request (docs/performance.md,
 * "Young-generation size"; bench/young-generation.ts, bench/peers.ts).
 *
 * `--no-allocation-site-pretenuring`: V8 allocates straight into the old generation from the code sites
 * whose objects it saw survive a scavenge. A large page's rows, records and answer tree are all alive
 * at the scavenge that comes during it, so their sites get pretenured, and every later page's objects
 * from them go to the old generation, where they die at once: a mark-compact every ~45 pages (130 ms
 * of marking on the one core) and dead old objects that keep young ones alive. Without it, a
 * `changes` page of 1 000 costs a quarter less CPU, its p95 a quarter less, its p99 a third; building
 * the read model did not slow beyond noise (docs/performance.md, "Pretenuring").
 */
export const SERVE_V8_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--no-allocation-site-pretenuring'];

const SEMI_SPACE_FLAG = /^--max[-_]semi[-_]space[-_]size(?:=(\d+))?$/;

/** A V8 flag's name whatever its spelling (`_` or `-`), value or polarity (`--no-`). */
function flagName(flag: string): string | null {
  if (!flag.startsWith('--')) return null;
  return flag.slice(2).split('=')[0]!.replaceAll('_', '-').replace(/^no-/, '');
}

/** The flags of NODE_OPTIONS, then of the command line (the command line wins, as in Node). */
function givenFlags(execArgv: readonly string[], nodeOptions: string): string[] {
  return [...nodeOptions.split(/\s+/).filter(Boolean), ...execArgv];
}

/**
 * The semi-space cap (MB) this process runs with: the last `--max-semi-space-size` of NODE_OPTIONS
 * and the command line (the command line wins, as in Node); null when neither sets one (V8's sizing).
 */
export function semiSpaceCapMb(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env['NODE_OPTIONS'] ?? ''): number | null {
  const flags = givenFlags(execArgv, nodeOptions);
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

/** Whether V8 pretenures by allocation site in this process (its default), after the last flag that says. */
export function allocationSitePretenuring(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env['NODE_OPTIONS'] ?? ''): boolean {
  let on = true;
  for (const flag of givenFlags(execArgv, nodeOptions)) {
    if (flagName(flag) === 'allocation-site-pretenuring') on = !flag.slice(2).replaceAll('_', '-').startsWith('no-');
  }
  return on;
}

/** The flags of SERVE_V8_FLAGS that neither the command line nor NODE_OPTIONS sets, in either sense. */
export function missingServeV8Flags(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env['NODE_OPTIONS'] ?? ''): string[] {
  const given = new Set(givenFlags(execArgv, nodeOptions).map(flagName));
  return SERVE_V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/**
 * The node flags of a cluster worker: the primary's own, after serve's flags it lacks, so workers run
 * with them even when the primary was started as `node bin/calendar.js serve` (NODE_OPTIONS reaches
 * the workers through the environment as it is).
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env['NODE_OPTIONS'] ?? ''): string[] {
  return [...missingServeV8Flags(execArgv, nodeOptions), ...execArgv];
}

/** The one line a `calendar serve` started without some of serve's flags logs at start: which, and how to pass them. */
export function missingServeV8FlagsWarning(missing: readonly string[]): string {
  const flags = missing.join(' ');
  // On the command line: NODE_OPTIONS refuses --no-allocation-site-pretenuring.
  return `started without the V8 flags ${flags}: running with V8's defaults for them; pass them on node's command line (node ${flags} bin/calendar.js serve), as npm start and ./bin/calendar.js do (docs/operating.md, "Node flags")`;
}
