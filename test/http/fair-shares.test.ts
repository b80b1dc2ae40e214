import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetrics } from '../support/prometheus-metrics.js';
import { databaseLabel } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { NOW } from './fixtures/http-calendar.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Enough events that an uncached page of 500 with totals takes a few milliseconds to execute. */
const calendar = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [{ id: 'V-1', slug: 'scene', name: 'Scene', address: 'Gata 1', postalCode: '0150', municipality: 'Oslo' }],
  organizers: [{ id: 'ORG-1', slug: 'arrangor', name: 'Arrangør', website: null }],
  events: Array.from({ length: 1500 }, (_, i) => ({
    id: `E-${i}`,
    slug: `e-${i}`,
    title_nb: `Arrangement ${i}`,
    title_en: `Event ${i}`,
    categories: ['CONCERT'],
    organizers: ['ORG-1'],
    venue: 'V-1',
    ticketsInformation: 'free',
    dates: [{ start: new Date(NOW.getTime() + (i + 1) * 3_600_000).toISOString(), end: null }],
    created_at: '2026-04-01T10:00:00+02:00',
    updated_at: '2026-04-01T10:00:00+02:00',
  })),
};

const PAGE = 'query ($filter: Filter) { events(filter: $filter, pageSize: 500) { totalCount data { id title_nb title_en venue { name } organizers { name } } } }';
let unique = 0;
/** A page nobody asked before (its own fromDate): it must execute. */
function uncachedPage(url: string, headers: Record<string, string>): Promise<Response> {
  unique += 1;
  const fromDate = new Date(NOW.getTime() - unique * 1000).toISOString();
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: PAGE, variables: { filter: { fromDate } } }) });
}

async function waitingExecutions(server: TestServer): Promise<number> {
  return parseMetrics(await (await fetch(`${server.origin}/metrics`)).text()).value('calendar_executions_waiting');
}

/**
 * Opens a connection the server has accepted: one `/health` exchange on it, kept alive. (Node accepts
 * one new connection per turn of its event loop, so connections merely opened are taken in one by one,
 * between executions, however early their requests were written.)
 */
async function acceptedConnection(hostname: string, port: number): Promise<Socket> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const opened = connect(port, hostname, () => resolve(opened));
    opened.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const headEnd = received.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(received)?.[1] ?? Number.NaN);
      if (headEnd < 0 || Number.isNaN(length) || received.length < headEnd + 4 + length) return;
      socket.off('data', onData);
      if (!received.startsWith('HTTP/1.1 200')) reject(new Error(`/health answered ${received.slice(0, 12)}`));
      else resolve();
    };
    socket.on('data', onData);
    socket.write(`GET /health HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
  });
  return socket;
}

/**
 * Sends one uncached page per entry of `callers` (its headers), in that order, in one synchronous
 * stretch over connections the server has already accepted: they sit in its socket buffers before it
 * reads any, so it reads them all in one turn and queues them in the order written. (Sent one by one
 * from this process, each would be read while the ones before it execute, and on PostgreSQL the queue
 * drains as fast as it forms.) Resolves to each answer's status, once its whole answer is read.
 */
async function sendAtOnce(server: TestServer, callers: Record<string, string>[]): Promise<Promise<number>[]> {
  const { hostname, port, pathname } = new URL(server.url);
  const sockets = await Promise.all(callers.map(() => acceptedConnection(hostname, Number(port))));
  const answers = sockets.map(
    (socket) =>
      new Promise<number>((resolve, reject) => {
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.once('error', reject);
        // `Connection: close`: the answer ends with the connection.
        socket.once('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(chunks).toString('latin1'))?.[1] ?? 0)));
      }),
  );
  const requests = callers.map((headers) => {
    unique += 1;
    const fromDate = new Date(NOW.getTime() - unique * 1000).toISOString();
    const body = JSON.stringify({ query: PAGE, variables: { filter: { fromDate } } });
    const lines = [`POST ${pathname} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    return `${lines.join('\r\n')}\r\n\r\n${body}`;
  });
  sockets.forEach((socket, i) => socket.write(requests[i]!));
  return answers;
}

/** Waits until at least `count` requests wait for their turn (the queue this test needs has formed). */
async function untilWaiting(server: TestServer, count: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await waitingExecutions(server)) >= count) return;
    await sleep(5);
  }
  throw new Error(`fewer than ${count} requests ever waited`);
}

const from = (address: string) => ({ 'x-forwarded-for': address });

describe(`fair shares of execution (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    // One execution at a time, so the order of turns is exact; the local proxy is trusted to name
    // clients. No MAX_IN_FLIGHT_PER_CALLER: by default a caller is slowed, never refused (the spec
    // promises no rate limit).
    server = await startTestServer({ calendar, clock: () => NOW, env: { TRUST_PROXY: 'loopback', EXECUTION_SLOTS: '1' } });
  }, 60_000);
  afterAll(async () => server?.close());

  it('serves another caller’s single request within one execution of a caller that has many waiting', async () => {
    const completed: string[] = [];
    // 80 pages of the greedy caller, then the polite caller's one, written last in one burst. In
    // arrival order the polite page would be answered last; with fair shares it goes after the greedy
    // page running when it was read and the greedy caller's next turn.
    const callers = [...Array.from({ length: 80 }, () => from('203.0.113.10')), from('203.0.113.20')];
    const answers = (await sendAtOnce(server, callers)).map((answered, i) =>
      answered.then((status) => {
        expect(status).toBe(200);
        completed.push(i < 80 ? `greedy ${i}` : 'polite');
      }),
    );
    await Promise.all(answers);
    // The service finishes it within the first few; seen from here a few more may slip in between
    // (this process reads all 81 answers as they come).
    expect(completed.indexOf('polite')).toBeLessThanOrEqual(8);
    // A caller's own requests keep their order.
    const greedyOrder = completed.filter((c) => c.startsWith('greedy')).map((c) => Number(c.split(' ')[1]));
    expect(greedyOrder.slice(5)).toEqual([...greedyOrder.slice(5)].sort((a, b) => a - b));
  });

  it('counts waits and executions per caller class in /metrics', async () => {
    const metrics = parseMetrics(await (await fetch(`${server.origin}/metrics`)).text());
    expect(metrics.value('calendar_executions_total', { caller_class: 'anonymous' })).toBeGreaterThanOrEqual(81);
    expect(metrics.sample('calendar_execution_wait_seconds', { caller_class: 'anonymous' })).toBeDefined();
    expect(metrics.value('calendar_executions_running')).toBe(0);
    expect(metrics.value('calendar_executions_waiting')).toBe(0);
  });
});

describe(`one caller’s share, and who a caller is (${databaseLabel})`, () => {
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startTestServer({ calendar, clock: () => NOW, env: { EXECUTION_SLOTS: '1', MAX_IN_FLIGHT_PER_CALLER: '4', ...env } });
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  /**
   * Keeps one caller's share full for a while (sixteen senders, each sending again as soon as it is
   * answered, for a share of four: an answer is compressed and written after its execution has left
   * the share, so each sender spends part of its time outside it) and asks with `probe` meanwhile,
   * again and again: the probes' statuses, and the 429s the full share's caller got.
   */
  async function whileShareIsFull(server: TestServer, headers: Record<string, string>, probe: () => Promise<Response>): Promise<{ probes: number[]; overflow: Response[] }> {
    let sending = true;
    const overflow: Response[] = [];
    const senders = Array.from({ length: 16 }, async () => {
      while (sending) {
        const response = await uncachedPage(server.url, headers);
        if (response.status === 429) overflow.push(response);
        else await response.arrayBuffer();
        if (response.status === 429) await sleep(2);
      }
    });
    await untilWaiting(server, 3);
    const probes: number[] = [];
    for (let i = 0; i < 15; i++) {
      const answer = await probe();
      await answer.arrayBuffer();
      probes.push(answer.status);
      await sleep(10);
    }
    sending = false;
    await Promise.all(senders);
    return { probes, overflow };
  }

  it('answers a caller past its share 429 RATE_LIMITED with Retry-After, while another caller is served', async () => {
    const server = await start({ TRUST_PROXY: 'loopback' });
    const { probes, overflow } = await whileShareIsFull(server, from('198.51.100.7'), () => uncachedPage(server.url, from('198.51.100.8')));
    expect(probes.every((status) => status === 200)).toBe(true);
    expect(overflow.length).toBeGreaterThan(0);
    const refused = overflow[0]!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const body = (await refused.json()) as { data?: unknown; errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('RATE_LIMITED');
    expect(body.errors[0]!.message).toMatch(/4 requests running or waiting/);
    expect(body.data).toBeUndefined();
  });

  it('does not believe X-Forwarded-For from a proxy it was not told to trust: both requests are one caller’s', async () => {
    const server = await start({});
    const { probes } = await whileShareIsFull(server, from('198.51.100.7'), () => uncachedPage(server.url, from('198.51.100.8')));
    expect(probes).toContain(429);
  });

  it('tells IPv6 callers apart by their /64, from X-Forwarded-For or RFC 7239 Forwarded', async () => {
    const server = await start({ TRUST_PROXY: '127.0.0.1/8, ::1' });
    const sameBlock = await whileShareIsFull(server, from('2001:db8:1:2::1'), () => uncachedPage(server.url, from('2001:db8:1:2:ffff::abcd')));
    expect(sameBlock.probes).toContain(429);
    const viaForwarded = await whileShareIsFull(server, from('2001:db8:1:2::1'), () => uncachedPage(server.url, { forwarded: 'for="[2001:db8:1:2::5]:4711";proto=https' }));
    expect(viaForwarded.probes).toContain(429);
    const nextBlock = await whileShareIsFull(server, from('2001:db8:1:2::1'), () => uncachedPage(server.url, from('2001:db8:1:3::1')));
    expect(nextBlock.probes.every((status) => status === 200)).toBe(true);
  });

  it('refuses a TRUST_PROXY it cannot read, naming the setting', async () => {
    await expect(start({ TRUST_PROXY: 'not-an-address' })).rejects.toThrow(/TRUST_PROXY: must be none, a hop count or comma-separated addresses/);
  });
});
