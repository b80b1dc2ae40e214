import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request headers our clients send; the preflight always allows them. */
export const CLIENT_HEADERS = ['Content-Type', 'Accept', 'X-Api-Key', 'X-Page-Url', 'X-Client-Id', 'Service-Require-Preflight', 'If-None-Match'];

/** How long browsers may reuse a preflight answer (Chromium caps it at 2 h, Firefox at 24 h). */
export const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

const ALLOWED_METHODS = 'GET, POST, OPTIONS';
const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Spec: "a web page on any origin may call the endpoint directly". `*` rather than echoing the
 * Origin: no credentials are involved (the key is a header, not a cookie), and a constant value
 * keeps shared caches from needing `Vary: Origin`.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  // Neither is CORS-safelisted: conditional requests from pages read ETag, and a page reporting a
  // failure to its operator can quote the request id our log line carries.
  'Access-Control-Expose-Headers': 'ETag, X-Request-Id',
});

/**
 * Answers an OPTIONS preflight: the methods, our client headers plus any other header the browser
 * asks about (the API is open; generic GraphQL clients add their own headers), and a max-age so the
 * browser does not repeat the preflight before every request.
 */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  const requested = String(req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => HEADER_TOKEN.test(h));
  const known = new Set(CLIENT_HEADERS.map((h) => h.toLowerCase()));
  const allowed = [...CLIENT_HEADERS, ...requested.filter((h) => !known.has(h.toLowerCase()))];
  res.writeHead(204, {
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': allowed.join(', '),
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
    // The allowed headers echo the request, so a cache must key the preflight answer on them.
    Vary: 'Access-Control-Request-Headers',
    'Content-Length': '0',
  });
  res.end();
}
