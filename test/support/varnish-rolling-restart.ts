import { setTimeout as sleep } from 'node:timers/promises';
import { logLines, startServiceProcess, type ServiceProcess } from './service-process.js';
import { freePort } from './throwaway-postgres.js';
import { startThrowawayVarnish, type ThrowawayVarnish } from './throwaway-varnish.js';

/**
 * Issue 41's rehearsal, shared by test/deploy/rolling-restart.test.ts and bench/rolling-restart.ts:
 * two `calendar serve` processes over one PostgreSQL schema, a varnishd running the shipped VCL in
 * front of both, a steady stream of requests through the edge, and each node in turn stopped
 * (SIGTERM), started again and waited for until the edge holds it healthy.
 */

const EVENTS = 40;
const DAY_MS = 86_400_000;
const eventId = (n: number) => `E-${String(n).padStart(2, '0')}`;

/** Events a day apart from tomorrow on, so that `events` lists them in the order of their ids whatever the day the test runs. */
export function rehearsalCalendar(now = Date.now()) {
  const event = (n: number) => ({
    id: eventId(n),
    slug: eventId(n).toLowerCase(),
    title_nb: `Arrangement ${n}`,
    title_en: `Event ${n}`,
    categories: ['CONCERT'],
    organizers: ['ORG-1'],
    venue: 'V-1',
    ticketsInformation: 'free',
    dates: [{ start: new Date(now + n * DAY_MS).toISOString(), end: null }],
    created_at: '2026-04-01T10:00:00+02:00',
    updated_at: '2026-04-01T10:00:00+02:00',
  });
  return {
    categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
    venues: [{ id: 'V-1', slug: 'scene', name: 'Scene', address: 'Gate 1', postalCode: '0150', municipality: 'Oslo', location: { latitude: 59.91, longitude: 10.75 } }],
    organizers: [{ id: 'ORG-1', slug: 'konsertforeningen', name: 'Konsertforeningen', website: 'https://example.org' }],
    events: Array.from({ length: EVENTS }, (_, i) => event(i + 1)),
  };
}

/** One request of the load and the `data` a right answer carries. */
interface Probe {
  kind: RequestKind;
  init: RequestInit & { url: string };
  data: unknown;
}

export type RequestKind = 'cached GET' | 'uncached GET' | 'POST';

const PAGE = 'query RehearsalPage($page: Int!, $pageSize: Int!) { events(page: $page, pageSize: $pageSize) { totalCount data { id } } }';
const BY_ID = 'query RehearsalEvent($id: String!) { eventByID(eventID: $id) { id title_nb } }';

const page = (pageNumber: number, pageSize: number) => {
  const ids = Array.from({ length: EVENTS }, (_, i) => eventId(i + 1)).slice(pageNumber * pageSize, (pageNumber + 1) * pageSize);
  return { events: { totalCount: EVENTS, data: ids.map((id) => ({ id })) } };
};
const byId = (n: number) => ({ eventByID: { id: eventId(n), title_nb: `Arrangement ${n}` } });
const getUrl = (origin: string, query: string, variables: Record<string, unknown>) =>
  `${origin}/graphQL?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(JSON.stringify(variables))}`;

/**
 * The `sequence`-th request of the load: in turn a GET of one of a few pages (cached at the edge
 * after the first), a GET of a page never asked before (its variables unique: it reaches a node),
 * and a POST (passed to a node).
 */
function probeOf(origin: string, sequence: number): Probe {
  const turn = Math.floor(sequence / 3);
  switch (sequence % 3) {
    case 0: {
      const n = (turn % 4) + 1;
      return { kind: 'cached GET', init: { url: getUrl(origin, BY_ID, { id: eventId(n) }), headers: { 'service-require-preflight': 'true' } }, data: byId(n) };
    }
    case 1: {
      // Unique (page, pageSize) for each turn: 1 to 5 events a page, the page counting up.
      const pageSize = (turn % 5) + 1;
      const pageNumber = Math.floor(turn / 5);
      return {
        kind: 'uncached GET',
        init: { url: getUrl(origin, PAGE, { page: pageNumber, pageSize }), headers: { 'service-require-preflight': 'true' } },
        data: page(pageNumber, pageSize),
      };
    }
    default: {
      const n = (turn % EVENTS) + 1;
      return {
        kind: 'POST',
        init: { url: `${origin}/graphQL`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: BY_ID, variables: { id: eventId(n) } }) },
        data: byId(n),
      };
    }
  }
}

export interface LoadResult {
  answered: Record<RequestKind, number>;
  /** Every answer that was not a 200 with the right data, or no answer: `<kind> <status or error>: <body>` */
  failures: string[];
}

/** `concurrency` loops sending requests through the edge one after another until stopped. */
export function startLoad(edgeOrigin: string, concurrency: number): { stop(): Promise<LoadResult> } {
  const result: LoadResult = { answered: { 'cached GET': 0, 'uncached GET': 0, POST: 0 }, failures: [] };
  let sequence = 0;
  let running = true;
  const loop = async () => {
    while (running) {
      const probe = probeOf(edgeOrigin, sequence++);
      try {
        const response = await fetch(probe.init.url, probe.init);
        const body = await response.text();
        const answer = response.status === 200 ? (JSON.parse(body) as { data?: unknown; errors?: unknown }) : undefined;
        if (answer && answer.errors === undefined && JSON.stringify(answer.data) === JSON.stringify(probe.data)) result.answered[probe.kind] += 1;
        else result.failures.push(`${probe.kind} ${response.status}: ${body.replace(/\s+/g, ' ').slice(0, 200)}`);
      } catch (error) {
        result.failures.push(`${probe.kind} no answer: ${error instanceof Error ? `${error.message} ${error.cause instanceof Error ? error.cause.message : ''}` : String(error)}`);
      }
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return result;
    },
  };
}

/** A node of the rehearsal: `calendar serve` on a port of its own, started again on the same port. */
export class RehearsalNode {
  /** Every process this node has run, the current one last. */
  readonly processes: ServiceProcess[] = [];

  private constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  static async start(env: Record<string, string>): Promise<RehearsalNode> {
    const node = new RehearsalNode(await freePort(), env);
    await node.startProcess();
    return node;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts a process and waits until it listens and its /ready answers 200. */
  async startProcess(): Promise<void> {
    const service = startServiceProcess({ ...this.env, PORT: String(this.port) });
    this.processes.push(service);
    await service.listening;
    for (let attempt = 0; (await fetch(`${this.origin}/ready`).then((r) => r.status, () => 0)) !== 200; attempt += 1) {
      if (attempt > 300) throw new Error(`node on ${this.port} not ready within 30 s:\n${service.stderr()}`);
      await sleep(100);
    }
  }

  /** SIGTERM to the current process; its exit status. */
  async stop(): Promise<number | string> {
    return this.processes.at(-1)!.stop();
  }

  /** The GraphQL requests each of its processes answered, first process first. */
  graphqlAnswered(): number[] {
    return this.processes.map((service) => logLines(service.stderr(), 'request completed').filter((line) => line['path'] === '/graphQL').length);
  }
}

/** Waits until the edge's probe holds every backend in `names` as `healthy`. */
export async function untilEdgeHolds(edge: ThrowawayVarnish, names: readonly string[], healthy: boolean, timeoutMs = 15_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const health = await edge.backendHealth();
    if (names.every((name) => health[name] === healthy)) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`the edge did not hold ${names.join(', ')} ${healthy ? 'healthy' : 'sick'} within ${timeoutMs} ms: ${JSON.stringify(health)}`);
    await sleep(100);
  }
}

export interface RollingRestart {
  nodes: [RehearsalNode, RehearsalNode];
  edge: ThrowawayVarnish;
  load: LoadResult;
  /** The exit status of each stopped process (0: drained and stopped cleanly). */
  exits: (number | string)[];
  close(): Promise<void>;
}

/**
 * Two nodes on `env` (the database settings, SHUTDOWN_DELAY_MS...), the shipped edge in front of
 * both, `concurrency` loops of load through it; after `settleMs`, node 1 is stopped, started again
 * and waited for until the edge holds it healthy, then node 2 the same, and the load runs
 * `settleMs` more. `vcl` may alter the shipped VCL (bench/: measuring without a part of it).
 */
export async function rehearseRollingRestart(options: {
  env: Record<string, string>;
  concurrency: number;
  settleMs: number;
  vcl?: (shipped: string) => string;
  log?: (line: string) => void;
}): Promise<RollingRestart> {
  const log = options.log ?? (() => undefined);
  const nodes: RehearsalNode[] = [];
  let edge: ThrowawayVarnish | undefined;
  const close = async () => {
    await edge?.stop();
    for (const node of nodes) {
      const current = node.processes.at(-1);
      if (current && current.child.exitCode === null && current.child.signalCode === null) current.child.kill('SIGKILL');
      await current?.exited;
    }
  };
  try {
    nodes.push(await RehearsalNode.start(options.env), await RehearsalNode.start(options.env));
    const pair = nodes as [RehearsalNode, RehearsalNode];
    edge = await startThrowawayVarnish([pair[0].port, pair[1].port], { vcl: options.vcl });
    await untilEdgeHolds(edge, ['node_1', 'node_2'], true);
    const load = startLoad(edge.origin, options.concurrency);
    await sleep(options.settleMs);
    const exits: (number | string)[] = [];
    for (const [i, node] of pair.entries()) {
      const name = `node_${i + 1}`;
      const since = performance.now();
      exits.push(await node.stop());
      log(`${name}: stopped (exit ${exits.at(-1)}) after ${Math.round(performance.now() - since)} ms`);
      await node.startProcess();
      log(`${name}: ready again after ${Math.round(performance.now() - since)} ms`);
      await untilEdgeHolds(edge, [name], true);
      log(`${name}: healthy at the edge after ${Math.round(performance.now() - since)} ms`);
    }
    await sleep(options.settleMs);
    return { nodes: pair, edge, load: await load.stop(), exits, close };
  } catch (error) {
    await close();
    throw error;
  }
}
