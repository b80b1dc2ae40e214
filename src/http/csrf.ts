import type { IncomingMessage } from 'node:http';

export const PREFLIGHT_HEADER = 'Service-Require-Preflight';

export const CSRF_MESSAGE =
  'This request has been blocked as a possible Cross-Site Request Forgery (CSRF). Send POST with Content-Type: application/json, ' +
  `or send GET with a non-empty ${PREFLIGHT_HEADER} header (for example "${PREFLIGHT_HEADER}: true").`;

/** Content types a browser may POST across origins without a preflight ("simple" requests); '' is none. */
const SIMPLE_TYPES = new Set(['', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);

/** The media type of a request body, lower-case, without parameters; '' when there is none. */
export function requestMediaType(req: IncomingMessage): string {
  return String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Threat model: a browser sends "simple" requests (GET, or POST as text/plain, a form type or with
 * no content type) to any origin without a CORS preflight and with the user's ambient credentials.
 * Requiring either a JSON content type or a custom header forces a preflight, so no other site can
 * make a visitor's browser run an operation unseen. Spec, errors table: a GET without the header is
 * a 400 whose message mentions CSRF; a POST of a simple content type is refused the same way.
 */
export function isCsrfSafe(req: IncomingMessage): boolean {
  // HEAD is a GET without the body: the same rule, or it would tell a prober the GET's status and headers.
  if (req.method === 'GET' || req.method === 'HEAD') return String(req.headers[PREFLIGHT_HEADER.toLowerCase()] ?? '').trim() !== '';
  return !SIMPLE_TYPES.has(requestMediaType(req));
}
