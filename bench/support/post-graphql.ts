import { request, type Agent } from 'node:http';

/** One GraphQL POST's answer: how long it took (until its last byte) and its text. */
export interface PostedAnswer {
  ms: number;
  text: string;
}

/**
 * POSTs an operation over the benchmark's keep-alive agent and resolves once the whole answer has
 * arrived; rejects on a status other than 200 or an answer with errors, so a benchmark never times
 * failures as answers.
 */
export function postGraphQL(agent: Agent, url: string, query: string, variables: Record<string, unknown>): Promise<PostedAnswer> {
  const body = JSON.stringify({ query, variables });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - started;
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200 || text.includes('"errors"')) reject(new Error(`${res.statusCode}: ${text.slice(0, 300)}`));
        else resolve({ ms, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
