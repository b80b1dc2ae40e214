/**
 * What the young generation costs large pages (docs/performance.md, "Young-generation size"): a full
 * sync walked in `changes` pages of 1 000 (the fields a mirror keeps), one after another, against the
 * service as a process pinned to CPU 0, once per set of V8 flags; this process is the load (CPU 1).
 * Each service runs with `--trace-gc-nvp`, and its collections are read from its stdout. Prints per
 * flag set: page latency p50/p95/p99, the service's CPU per page (/proc), and per scavenge its median
 * pause, bytes that survived and bytes promoted (each scavenge promotes what the one before kept:
 * objects kept alive by promoted garbage), plus the mark-compacts.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test taskset -c 1 npx tsx bench/young-generation.ts
 *   BENCH_FLAG_SETS='--max-semi-space-size=0;--max-semi-space-size=8;--max-semi-space-size=16' BENCH_PAGES=300 ...
 *
 * Needs the `bench_<BENCH_SIZE>` schema that bench/read-model.ts seeds (`npm run bench`).
 */
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startPinned } from './support/pinned-process.js';
import { postGraphQL } from './support/post-graphql.js';
import { processCpuMs } from './support/process-cpu.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL that bench/read-model.ts seeded');
const size = Number(process.env['BENCH_SIZE'] ?? 100_000);
const pages = Number(process.env['BENCH_PAGES'] ?? 200);
const flagSets = (process.env['BENCH_FLAG_SETS'] ?? '--max-semi-space-size=8;--max-semi-space-size=16').split(';').map((set) => set.split(/\s+/).filter(Boolean));
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

const FIELDS = 'id title_nb startDate endDate venue { name } organizers { name } categories images { urlSmall } prices { type price }';
const CHANGES = `query ($since: String) { changes(since: $since, pageSize: 1000) { changed { ${FIELDS} } cursor hasMore } }`;

interface Collection {
  kind: string;
  pause: number;
  survived: number;
  promoted: number;
}

/** The `--trace-gc-nvp` records in a process's output: `key=value` pairs, one collection per record. */
function collectionsIn(output: string): Collection[] {
  return output
    .split(/\[\d+:0x[0-9a-f]+(?::\d+)?\]/)
    .map((record) => new Map([...record.matchAll(/([a-z_.]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])))
    .filter((fields) => fields.has('gc') && fields.has('pause'))
    .map((fields) => ({
      kind: fields.get('gc')!,
      pause: Number(fields.get('pause')),
      survived: Number(fields.get('new_space_survived') ?? 0),
      promoted: Number(fields.get('promoted') ?? 0),
    }));
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;

const rows: Record<string, string>[] = [];
for (const flags of flagSets) {
  const service = await startPinned(['--trace-gc-nvp', ...flags, 'bin/calendar.js', 'serve'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, DATABASE_SCHEMA: `bench_${size}`, DEMO_EVENTS: '0', RESPONSE_CACHE: 'off', LOG_LEVEL: 'warn' },
  });
  try {
    let since: string | null = null;
    const page = async () => {
      const { ms, text } = await postGraphQL(agent, service.url, CHANGES, { since });
      const changes = (JSON.parse(text) as { data: { changes: { cursor: string; hasMore: boolean } } }).data.changes;
      since = changes.hasMore ? changes.cursor : null;
      return ms;
    };
    // Warm-up: the first snapshot, compiled code, the young generation grown to its size.
    for (let i = 0; i < 30; i++) await page();
    const before = collectionsIn(service.log()).length;
    const cpuBefore = processCpuMs(service.child.pid!);
    const latencies: number[] = [];
    for (let i = 0; i < pages; i++) latencies.push(await page());
    const cpu = (processCpuMs(service.child.pid!) - cpuBefore) / pages;
    const measured = collectionsIn(service.log()).slice(before);
    const scavenges = measured.filter((c) => c.kind === 's');
    const majors = measured.filter((c) => c.kind !== 's');
    const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
    rows.push({
      flags: flags.join(' ') || '(none)',
      'p50/p95/p99 ms': [0.5, 0.95, 0.99].map((p) => percentile(latencies, p).toFixed(1)).join('/'),
      'CPU ms/page': cpu.toFixed(1),
      'scavenges/page': (scavenges.length / pages).toFixed(2),
      'scavenge pause p50/max ms': scavenges.length ? `${percentile(scavenges.map((c) => c.pause), 0.5).toFixed(1)}/${Math.max(...scavenges.map((c) => c.pause)).toFixed(1)}` : '-',
      'survived MB p50': scavenges.length ? mb(percentile(scavenges.map((c) => c.survived), 0.5)) : '-',
      'promoted MB p50': scavenges.length ? mb(percentile(scavenges.map((c) => c.promoted), 0.5)) : '-',
      'mark-compacts (pause p50 ms)': `${majors.length} (${majors.length ? percentile(majors.map((c) => c.pause), 0.5).toFixed(1) : '-'})`,
    });
  } finally {
    await service.stop();
  }
}
agent.destroy();
console.log(`full-sync changes pages of 1 000 at ${size} events, ${pages} pages per flag set (service on CPU 0, response cache off)`);
console.table(rows);
