import { Agent, get, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { databaseLabel } from '../support/test-database.js';
import { isReachable, startTestServer } from '../support/test-server.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A GET on `agent`'s connections (kept alive), with the headers as sent, `Connection` included. */
function getOn(agent: Agent, port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent, headers: { 'service-require-preflight': 'true' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    }).on('error', reject);
  });
}

describe(`SHUTDOWN_DELAY_MS: a stopping node answers, unready, before it stops accepting (${databaseLabel})`, () => {
  it('answers /ready 503 and every request with Connection: close for the delay, then refuses connections', async () => {
    const server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, env: { SHUTDOWN_DELAY_MS: '1500' } });
    const port = Number(new URL(server.origin).port);
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    // Ready once the read model is built (the server answers before).
    let before = await getOn(kept, port, '/ready');
    for (let attempt = 0; before.status !== 200 && attempt < 100; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      before = await getOn(kept, port, '/ready');
    }
    expect(before.status).toBe(200);
    expect(before.headers.connection).toBe('keep-alive');

    const since = performance.now();
    const closing = server.close();
    // On the connection kept from before: still answered, and closed after the answer (told so).
    const ready = await getOn(kept, port, '/ready');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: 'unavailable', database: 'reachable', schema: 'current', reason: 'the service is shutting down' });
    expect(ready.headers['retry-after']).toBeDefined();
    expect(ready.headers.connection).toBe('close');
    // A new connection is still accepted, and its request answered in full.
    const answer = await getOn(new Agent({ keepAlive: true }), port, `/graphQL?query=${encodeURIComponent('{ categories { id } }')}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ data: { categories: [{ id: 'CONCERT' }, { id: 'THEATER' }] } });
    expect(answer.headers.connection).toBe('close');
    // Headers set before the route's own (Connection) do not cost an answer its CORS or request id.
    for (const { headers } of [ready, answer]) {
      expect(headers['access-control-allow-origin']).toBe('*');
      expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(performance.now() - since).toBeLessThan(1_500);
    expect(await isReachable('127.0.0.1', port)).toBe(true);

    await closing;
    expect(performance.now() - since).toBeGreaterThanOrEqual(1_450);
    expect(await isReachable('127.0.0.1', port)).toBe(false);
    kept.destroy();
  });

  it('stops accepting at once by default', async () => {
    const server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
    const port = Number(new URL(server.origin).port);
    const since = performance.now();
    await server.close();
    expect(performance.now() - since).toBeLessThan(1_000);
    expect(await isReachable('127.0.0.1', port)).toBe(false);
  });
});
