import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyTag, entityTag, matchesIfNoneMatch } from './caching-headers.js';

/**
 * Spec, transport: "A schema file is published under {base_url}". The text is the SDL the executable
 * schema was built from (one source), served as it is so comments and descriptions survive.
 */
export function createSchemaFileHandler(sdl: string): (req: IncomingMessage, res: ServerResponse) => void {
  const etag = entityTag(bodyTag(sdl), 'text/plain');
  const headers = {
    'Cache-Control': 'public, max-age=300',
    ETag: etag,
    'Content-Disposition': 'inline; filename="schema.graphql"',
  };
  return (req, res) => {
    if (matchesIfNoneMatch(req, etag)) {
      res.writeHead(304, headers);
      return void res.end();
    }
    res.writeHead(200, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(sdl) });
    res.end(sdl);
  };
}

/** The handler of the SDL `current()` gives now, made again when that changes (`npm run dev` replaces the schema). */
export function createLatestSchemaFileHandler(current: () => string): (req: IncomingMessage, res: ServerResponse) => void {
  let source: string | undefined;
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  return (req, res) => {
    const now = current();
    if (handler === undefined || now !== source) {
      source = now;
      handler = createSchemaFileHandler(now);
    }
    handler(req, res);
  };
}
