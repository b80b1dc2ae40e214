import { routeOf, type Route } from './route-table.js';

/**
 * A path WHATWG URL parsing leaves as it is: segments of letters, digits, `_` and `-`, the last
 * one with at most one extension. No `%`, no dot segment, no `//` (which URL would read as a host).
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+)*(?:\.[A-Za-z0-9]+)?\/?$/;
/**
 * A query string URL parsing leaves as it is (a special scheme's query percent-encode set: no
 * controls, space, `"`, `#`, `'`, `<`, `>` or non-ASCII). What browsers and URLSearchParams send.
 */
const PLAIN_QUERY = /^[!$-&(-;=?-~]*$/;

/**
 * A request's target (RFC 9110 §7.1), read once when the request arrives: the path the server
 * dispatches on and telemetry labels by, its route, the query string. The same as `new URL(req.url,
 * base)` would give, without parsing a URL for the plain paths and queries clients send (parsing
 * was 4 % of a cached answer's CPU); anything else goes through URL, so odd targets (`/a/../b`,
 * `%2F`, `//x`) are read exactly as before.
 */
export class RequestTarget {
  /** The path as sent, without the query string (what the access log writes). */
  readonly sentPath: string;
  /** The path as URL parsing reads it (dot segments resolved, characters percent-encoded). */
  readonly path: string;
  /** The query string as URL's `search` gives it: empty, or `?` and the rest. */
  readonly search: string;
  /** The route of `path`; undefined for any other path (a 404). */
  readonly route: Route | undefined;
  private parsed: URL | undefined;

  constructor(target: string | undefined) {
    const sent = target ?? '/';
    const mark = sent.indexOf('?');
    this.sentPath = mark === -1 ? sent : sent.slice(0, mark);
    const query = mark === -1 ? '' : sent.slice(mark);
    if (PLAIN_PATH.test(this.sentPath) && PLAIN_QUERY.test(query)) {
      this.path = this.sentPath;
      this.search = query.length === 1 ? '' : query;
    } else {
      const parsed = URL.parse(sent, 'http://localhost');
      this.parsed = parsed ?? undefined;
      this.path = parsed?.pathname ?? this.sentPath;
      this.search = parsed?.search ?? '';
      // Not a URL at all (`//a:b`: a host with a bad port): no route, so a 404.
      if (!parsed) {
        this.route = undefined;
        return;
      }
    }
    this.route = routeOf(this.path);
  }

  /** The whole URL, parsed when a route asks for it. */
  get url(): URL {
    return (this.parsed ??= new URL(`${this.path}${this.search}`, 'http://localhost'));
  }

  /** The query's parameters, decoded. */
  get searchParams(): URLSearchParams {
    return this.url.searchParams;
  }
}
