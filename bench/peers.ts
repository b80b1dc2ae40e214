/**
 * The project against Mercurius + graphql-jit (issue 30), side by side in one run: the same schema,
 * resolvers, read model and per-request context (bench/peers/mercurius-peer.ts), over the same
 * PostgreSQL schema, so that what differs is the pipeline around execution. Each server is a process
 * pinned to CPU 0, wrk loads it from CPU 1 (c=BENCH_CONNECTIONS, 50); per scenario a warm-up, then
 * BENCH_ROUNDS rounds of BENCH_SECONDS, the servers taking turns round by round (drift hits both alike):
 *
 * - S1: POST `{ categories { id name_nb } }`: the pipeline alone (parse, validate, context, execute, write).
 * - S2: POST an `events` page of 20 with totalCount, hasMore and the three facets, a new `fromDate` each
 *   request (a cold filter: what an origin behind a CDN mostly does).
 *
 * The project runs with RESPONSE_CACHE=off (both execute every request) and LOG_LEVEL=warn (no access log:
 * the peer has none). Printed: Node CPU per request (the servers' own CPU time / requests), requests/s,
 * p50 and p99 latency and p99/p50, and the project's CPU as a ratio of the peer's.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/peers.ts
 *   BENCH_EVENTS=100000 BENCH_ROUNDS=3 BENCH_SECONDS=10 ...   (defaults: 100 000 events, 3 rounds of 10 s)
 *   BENCH_SERVICE_ENV='EXECUTION_SLOTS=4' ...                  (settings for the project's service)
 *   BENCH_SCENARIOS=S1 ...                                      (only these scenarios, by name prefix; default all)
 *   BENCH_BEFORE_DIR=/tmp/before ...                            (also a checkout of another version, in the same turns:
 *                                                                before/after in one run; it needs its own node_modules)
 */
import { fileURLToPath } from 'node:url';
import { startPinned, startPinnedService } from './support/pinned-process.js';
import { median, postScript, withOrigin, wrk, type Load, type LoadedServer } from './support/wrk.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL the bench may create its schema in (both servers read it)');
const events = Number(process.env['BENCH_EVENTS'] ?? 100_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const seconds = Number(process.env['BENCH_SECONDS'] ?? 10);
const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
const onlyScenarios = process.env['BENCH_SCENARIOS']?.split(',').filter(Boolean);
const beforeDir = process.env['BENCH_BEFORE_DIR'];
const extraEnv = Object.fromEntries((process.env['BENCH_SERVICE_ENV'] ?? '').split(/\s+/).filter(Boolean).map((pair) => pair.split('=') as [string, string]));
const schema = `bench_peers_${events}`;
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

const S1 = JSON.stringify({ query: '{ categories { id name_nb } }' });
const S2_QUERY = `query ($filter: Filter) { events(filter: $filter, pageSize: 20) {
  totalCount hasMore data { id title_nb startDate venue { name } organizers { name } categories }
  venues { id hits } organizers { id hits } categories { id hits } } }`.replace(/\s+/g, ' ');

/** A Lua expression of the S2 body: `fromDate` one second earlier each request (a filter never asked before). */
const s2Body = `'{"query":${JSON.stringify(S2_QUERY).replace(/'/g, "\\'")},"variables":{"filter":{"fromDate":"' .. os.date("!%Y-%m-%dT%H:%M:%SZ", 1795000000 - n) .. '"}}}'`;

async function until(ok: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await ok().catch(() => false)); waited += 200) {
    if (waited > 900_000) throw new Error(`${what} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function post(url: string, body: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"errors"')) throw new Error(`${response.status} from ${url}: ${text.slice(0, 300)}`);
  return text;
}

const database = { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema };
// The service migrates and seeds the schema (once), then the peer reads it.
const project = withOrigin(await startPinnedService(serviceDir, { ...database, DEMO_EVENTS: String(events), RESPONSE_CACHE: 'off', LOG_LEVEL: 'warn', ...extraEnv }));
let peer: LoadedServer | undefined;
let before: LoadedServer | undefined;
try {
  await until(async () => (await fetch(`${project.origin}/ready`)).status === 200, 'the service became ready');
  if (beforeDir) {
    const started = withOrigin(await startPinnedService(beforeDir, { ...database, RESPONSE_CACHE: 'off', LOG_LEVEL: 'warn', ...extraEnv }));
    before = started;
    await until(async () => (await fetch(`${started.origin}/ready`)).status === 200, 'the version before became ready');
  }
  peer = withOrigin(await startPinned([fileURLToPath(new URL('peers/run-ts.js', import.meta.url)), fileURLToPath(new URL('peers/mercurius-peer.ts', import.meta.url))], { cwd: projectRoot, env: database }));
  const servers: [string, LoadedServer, string][] = [
    ['project (Envelop + helix + JIT)', project, new URL(project.url).pathname],
    ['Mercurius + graphql-jit', peer, new URL(peer.url).pathname],
    ...(before ? [['project, version before', before, new URL(before.url).pathname] as [string, LoadedServer, string]] : []),
  ];
  // Both answer the same: a check before any figure.
  const s2Check = JSON.stringify({ query: S2_QUERY, variables: { filter: { fromDate: '2026-11-28T00:00:00Z' } } });
  for (const body of [S1, s2Check]) {
    const [ours, theirs] = [await post(project.url, body), await post(peer.url, body)];
    if (before && (await post(before.url, body)) !== ours) throw new Error('the version before answers differently');
    if (ours !== theirs) throw new Error(`the servers answer differently:\n${ours.slice(0, 300)}\n${theirs.slice(0, 300)}`);
  }

  const scenarios: [string, (path: string) => string][] = [
    ['S1 categories', (path) => postScript(path, `'${S1}'`)],
    ['S2 page + totals + facets, cold', (path) => postScript(path, s2Body)],
  ];
  console.log(`\n${events} demo events on PostgreSQL · each server pinned to CPU 0, wrk -c${connections} on CPU 1 · median of ${rounds} × ${seconds} s, servers taking turns`);
  for (const [scenario, script] of scenarios) {
    if (onlyScenarios && !onlyScenarios.some((prefix) => scenario.startsWith(prefix))) continue;
    const loads = new Map<string, Load[]>();
    for (let round = 0; round < rounds; round += 1) {
      for (const [name, server, path] of servers) {
        const load = wrk(server, path, { connections, rounds: 1, seconds, luaScript: script(path), warmUpSeconds: round === 0 ? 3 : 1 });
        loads.set(name, [...(loads.get(name) ?? []), load]);
      }
    }
    console.log(`\n${scenario}`);
    const summary = new Map<string, Load>();
    for (const [name, all] of loads) {
      const load = { rate: median(all.map((l) => l.rate)), cpuPerRequest: median(all.map((l) => l.cpuPerRequest)), p50Ms: median(all.map((l) => l.p50Ms)), p99Ms: median(all.map((l) => l.p99Ms)) };
      summary.set(name, load);
      console.log(
        `  ${name.padEnd(32)} ${load.cpuPerRequest.toFixed(0).padStart(6)} µs CPU/req ${load.rate.toFixed(0).padStart(6)} req/s` +
          `   p50 ${load.p50Ms.toFixed(2).padStart(7)} ms  p99 ${load.p99Ms.toFixed(2).padStart(7)} ms  p99/p50 ${(load.p99Ms / load.p50Ms).toFixed(2)}`,
      );
    }
    // Each round apart: on a shared machine one round can run slower throughout (the same code's CPU per
    // request varies by a third from round to round), and the tail follows it; the spread says how far to
    // trust the medians.
    for (const [name, all] of loads) {
      const each = all.map((l) => `${l.cpuPerRequest.toFixed(0)} µs ${(l.p99Ms / l.p50Ms).toFixed(2)}`).join(' · ');
      console.log(`    ${name.padEnd(30)} rounds (CPU/req, p99/p50): ${each}`);
    }
    const [ours, theirs] = [summary.get(servers[0]![0])!, summary.get(servers[1]![0])!];
    const perRound = loads.get(servers[0]![0])!.map((l, i) => (l.cpuPerRequest / loads.get(servers[1]![0])![i]!.cpuPerRequest).toFixed(2));
    console.log(`  project / Mercurius CPU per request: ${(ours.cpuPerRequest / theirs.cpuPerRequest).toFixed(2)} (round by round: ${perRound.join(', ')})`);
    const earlier = before ? summary.get(servers[2]![0]) : undefined;
    if (earlier) console.log(`  project / version before CPU per request: ${(ours.cpuPerRequest / earlier.cpuPerRequest).toFixed(2)}`);
  }
} finally {
  await peer?.stop();
  await before?.stop();
  await project.stop();
}
