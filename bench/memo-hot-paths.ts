/**
 * The hot paths that remember a pure function's results (src/domain/bounded-memo.ts), timed on the
 * compiled code of two checkouts side by side, in turns: this one's dist/ and another's (before the
 * memo helper, say), each round in a process of its own. Each figure is the median over BENCH_ROUNDS
 * rounds of a round's fastest run, in nanoseconds per call.
 * - formatOsloTimestamp: every startDate and endDate of a large answer (40 000 instants, a week of
 *   dates on the hour and half hour: mostly repeated), as each answer writes them;
 * - osloDateTimeProperty: the same instants as an iCalendar feed writes them;
 * - readPriceInput: a page's price texts (a few dozen distinct, repeated);
 * - readImportTimestamp: a file's timestamps as JSON.parse hands them out (new strings, 5 000 distinct
 *   among 200 000), each read three times (validation twice, the loader once), then forgotten.
 *
 *   npm run build && npx tsx bench/memo-hot-paths.ts /work/before-af9ea4d
 *   BENCH_ROUNDS=15 npx tsx bench/memo-hot-paths.ts OTHER_CHECKOUT
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface HotPaths {
  formatOsloTimestamp(instant: Date): string;
  osloDateTimeProperty(name: 'DTSTART' | 'DTEND', instant: Date): string;
  readPriceInput(raw: string | number | null | undefined): number | null;
  readImportTimestamp(value: string): Date | null;
  forgetImportTimestamps(): void;
}

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 9);
const thisCheckout = fileURLToPath(new URL('..', import.meta.url));
const otherCheckout = process.argv[2];
if (!otherCheckout) throw new Error('usage: npx tsx bench/memo-hot-paths.ts OTHER_CHECKOUT (built: its dist/)');

async function load(checkout: string): Promise<HotPaths> {
  const from = (file: string) => import(pathToFileURL(path.join(checkout, 'dist', file)).href) as Promise<Record<string, unknown>>;
  const [osloTime, icalTime, price, importFormat] = await Promise.all([
    from('domain/oslo-time.js'),
    from('feeds/oslo-ical-time.js'),
    from('domain/price-input.js'),
    from('import/import-format.js'),
  ]);
  return { ...osloTime, ...icalTime, ...price, ...importFormat } as unknown as HotPaths;
}

const WEEK_START = Date.parse('2026-12-07T00:00:00+01:00');
const instants = Array.from({ length: 40_000 }, (_, i) => new Date(WEEK_START + ((i * 7919) % 336) * 30 * 60_000));
const priceTexts = Array.from({ length: 1000 }, (_, i) => ['Gratis', '250 kr', 'kr 150,-', '1 250', '99,50', 'fra 100 til 200'][i % 6]! + (i % 40 < 6 ? '' : ` ${i % 40}`));
const importJson = JSON.stringify(
  Array.from({ length: 200_000 }, (_, i) => new Date(WEEK_START + (i % 5000) * 15 * 60_000).toISOString().replace('.000Z', '+00:00')),
);

/** Nanoseconds per call of `calls` calls made by `run`. */
function timed(calls: number, run: () => void): number {
  const started = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - started) / calls;
}

const cases: Record<string, (paths: HotPaths) => number> = {
  formatOsloTimestamp: (p) => timed(instants.length * 5, () => {
    for (let pass = 0; pass < 5; pass++) for (const instant of instants) p.formatOsloTimestamp(instant);
  }),
  osloDateTimeProperty: (p) => timed(instants.length * 5, () => {
    for (let pass = 0; pass < 5; pass++) for (const instant of instants) p.osloDateTimeProperty('DTSTART', instant);
  }),
  readPriceInput: (p) => timed(priceTexts.length * 50, () => {
    for (let pass = 0; pass < 50; pass++) for (const text of priceTexts) p.readPriceInput(text);
  }),
  readImportTimestamp: (p) => {
    const texts = JSON.parse(importJson) as string[];
    const ns = timed(texts.length * 3, () => {
      for (let read = 0; read < 3; read++) for (const text of texts) p.readImportTimestamp(text);
    });
    p.forgetImportTimestamps();
    return ns;
  },
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One round in a process of its own (no JIT state shared between the checkouts): each case warmed up, then the fastest of ten runs (other work on the machine only ever slows a run down). */
async function oneRound(checkout: string): Promise<Record<string, number>> {
  const paths = await load(checkout);
  const figures: Record<string, number> = {};
  for (const [name, run] of Object.entries(cases)) {
    for (let warmUp = 0; warmUp < 3; warmUp++) run(paths);
    figures[name] = Math.min(...Array.from({ length: 10 }, () => run(paths)));
  }
  return figures;
}

if (process.argv[3] === '--round') {
  console.log(JSON.stringify(await oneRound(process.env['BENCH_WHICH'] === 'this' ? thisCheckout : otherCheckout)));
} else {
  const figures: Record<'this' | 'other', Record<string, number[]>> = { this: {}, other: {} };
  for (let round = 0; round < rounds; round++) {
    // Turns: which checkout goes first alternates, so that neither always runs on a warmer machine.
    for (const which of round % 2 === 0 ? (['this', 'other'] as const) : (['other', 'this'] as const)) {
      const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), otherCheckout, '--round'], {
        encoding: 'utf8',
        env: { ...process.env, BENCH_WHICH: which },
      });
      if (child.status !== 0) throw new Error(child.stderr);
      for (const [name, ns] of Object.entries(JSON.parse(child.stdout) as Record<string, number>)) (figures[which][name] ??= []).push(ns);
    }
  }
  console.log(`ns per call, median of ${rounds} rounds (a process each, its fastest of 10 runs); this = ${thisCheckout}, other = ${otherCheckout}`);
  for (const name of Object.keys(cases)) {
    const mine = median(figures.this[name]!);
    const theirs = median(figures.other[name]!);
    console.log(`${name.padEnd(22)} this ${mine.toFixed(1).padStart(7)}  other ${theirs.toFixed(1).padStart(7)}  (${(((mine - theirs) / theirs) * 100).toFixed(1)}%)`);
  }
}
