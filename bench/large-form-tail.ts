/**
 * Issue 43, in process: a large answer's time from the start of its write to its compressed form
 * being ready, written then compressed whole (what the service did before) against compressed as it
 * is written (src/http/answer-bytes.ts with a coding), and the tail after the body is done. The data:
 * BENCH_EVENTS events shaped like a whole-world area answer's (the fields bench/area.ts asks), one
 * list, so it is written 500 items per turn as in the service. Alternated round by round; medians.
 * Nothing but this runs in the process: on a busy machine the HTTP benchmark's times swing by 2–3x
 * (bench/large-answers-compressed.ts), these far less.
 *
 *   taskset -c 0 npx tsx bench/large-form-tail.ts          # one core: the thread pool shares it with the writer
 *   npx tsx bench/large-form-tail.ts                       # every core
 *   BENCH_EVENTS=100000 BENCH_ROUNDS=9 ...
 */
import { answerBytes } from '../src/http/answer-bytes.js';
import { compressForm } from '../src/http/answer-cache/answer-forms.js';
import type { Compression } from '../src/http/answer-cache/stored-answer.js';

const count = Number(process.env['BENCH_EVENTS'] ?? 20_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 9);
const VENUES = ['Operaen', 'Rockefeller Music Hall', 'Sentrum Scene', 'Blå', 'Nationaltheatret', 'Vulkan Arena'];

function event(i: number) {
  return {
    id: `${(i * 2654435761) % 4294967296}`.padStart(10, '0'),
    title_nb: `${['Konsert', 'Forestilling', 'Omvisning', 'Quiz'][i % 4]}: ${['Høstjazz', 'Barnas lørdag', 'Kammermusikk – «Vinterreise»', 'Standup'][i % 4]} ${i % 97}`,
    startDate: `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')} ${String(10 + (i % 12))}:00:00+01:00`,
    endDate: null,
    venue: { name: VENUES[i % VENUES.length], location: { latitude: 59.9 + ((i * 7) % 1000) / 1e4, longitude: 10.7 + ((i * 13) % 1000) / 1e4 } },
    categories: ['CONCERT', 'FAMILY', 'THEATRE', 'TALK'].slice(0, 1 + (i % 3)),
    organizers: [{ name: `Arrangør ${i % 30}` }],
    images: { urlSmall: `https://images.example.org/events/${(i * 7919) % 100_003}/small.jpg` },
    prices: i % 3 === 0 ? [] : [{ type: 'REGULAR', price: (i % 40) * 25 }],
  };
}

const data = { allUpcomingEventsInArea: Array.from({ length: count }, (_, i) => event(i)) };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function wholeAfterwards(coding: Compression): Promise<{ total: number; tail: number; bytes: number }> {
  const started = performance.now();
  const { body } = await answerBytes(data);
  const written = performance.now();
  const form = await compressForm(body, coding);
  const done = performance.now();
  return { total: done - started, tail: done - written, bytes: form.length };
}

async function asWritten(coding: Compression): Promise<{ total: number; tail: number; bytes: number }> {
  const started = performance.now();
  const { formsUnderWay } = await answerBytes(data, coding);
  const written = performance.now();
  const form = await formsUnderWay![coding]!;
  const done = performance.now();
  return { total: done - started, tail: done - written, bytes: form.length };
}

const body = (await answerBytes(data)).body;
console.log(`${count} events, ${(body.length / 1e6).toFixed(1)} MB of JSON; ${rounds} rounds, medians (ms)`);
for (const coding of ['br', 'gzip', 'zstd'] as const) {
  const results = { whole: [] as Awaited<ReturnType<typeof asWritten>>[], streamed: [] as Awaited<ReturnType<typeof asWritten>>[] };
  await wholeAfterwards(coding);
  await asWritten(coding);
  for (let round = 0; round < rounds; round++) {
    results.whole.push(await wholeAfterwards(coding));
    results.streamed.push(await asWritten(coding));
  }
  for (const [name, all] of Object.entries(results)) {
    console.log(
      `${coding.padEnd(5)} ${name === 'whole' ? 'written, then compressed whole' : 'compressed as written         '}  ` +
        `start to form ${median(all.map((r) => r.total)).toFixed(0).padStart(5)}   body done to form ${median(all.map((r) => r.tail)).toFixed(0).padStart(5)}   ${(all[0]!.bytes / 1e6).toFixed(2)} MB`,
    );
  }
}
