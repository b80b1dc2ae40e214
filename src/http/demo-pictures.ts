import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { parseDemoPicturePath } from '../demo/demo-picture-path.js';
import { drawDemoPicture } from '../demo/draw-demo-picture.js';
import { sendRequestError } from './respond.js';

/**
 * An SVG opened on its own is a document: nothing in ours runs scripts or loads anything, and the
 * policy says so to the browser too (inline styles only, no scripts, no fetches).
 */
const PICTURE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * `GET /demo-pictures/…`: the demo calendar's pictures, drawn from the path (src/demo/demo-picture-path.ts).
 * Nothing is stored: a path always draws the same picture, so any instance of the service answers
 * any demo URL, and caches may keep it for a day. Answers false for a path that names no picture.
 */
export function sendDemoPicture(req: IncomingMessage, res: ServerResponse, path: string): boolean {
  const picture = parseDemoPicturePath(path);
  if (!picture) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendRequestError(res, 'Use GET.', 'METHOD_NOT_ALLOWED', 405, { headers: { Allow: 'GET, HEAD, OPTIONS' } });
    return true;
  }
  const svg = Buffer.from(drawDemoPicture(picture));
  const etag = `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"`;
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const headers = {
    'Content-Type': 'image/svg+xml',
    'Cache-Control': 'public, max-age=86400',
    ETag: etag,
    Vary: 'Accept-Encoding',
    'Content-Security-Policy': PICTURE_CSP,
    'X-Content-Type-Options': 'nosniff',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  const body = gzip ? gzipSync(svg) : svg;
  res.writeHead(200, { ...headers, 'Content-Length': String(body.length), ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
