import type { IncomingMessage } from 'node:http';

export class BodyTooLargeError extends Error {}

/**
 * Reads the whole request body as text, refusing more than `limit` bytes. On refusal the stream is
 * paused, not destroyed, so the 413 answer can still be written (the caller closes the connection).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError());
  // The listeners stay until the request is done (a settled promise ignores what they say later).
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return;
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.pause();
      reject(new BodyTooLargeError());
    });
    req.on('end', () => resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8')));
    req.on('error', reject);
  });
}
