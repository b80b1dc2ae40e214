import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';

type HeadersGiven = OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined;

/**
 * The API server's responses (createServer's `ServerResponse` option): the headers every answer
 * carries (CORS, the request id) are given once per request and written with the route's own in
 * its one `writeHead`. Set one by one with `setHeader`, each is checked and filed, and then Node
 * files every header `writeHead` brings the same way instead of taking its object as it is: with
 * the checks, 6 % of a cached answer's CPU (docs/performance.md, "The route of a hit"). Every way a
 * response starts goes through `writeHead` (Node's implicit headers, for `res.end` alone, call it).
 */
export class ServiceResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Headers every answer to this request carries; the route's own headers of the same name win. */
  everyAnswer: Readonly<Record<string, string>> | undefined;
  private headersWrittenAtOnce: OutgoingHttpHeaders | undefined;

  override writeHead(statusCode: number, statusMessage?: string, headers?: HeadersGiven): this;
  override writeHead(statusCode: number, headers?: HeadersGiven): this;
  override writeHead(statusCode: number, messageOrHeaders?: string | HeadersGiven, headers?: HeadersGiven): this {
    const message = typeof messageOrHeaders === 'string' ? messageOrHeaders : undefined;
    const given = typeof messageOrHeaders === 'string' ? headers : messageOrHeaders;
    const base = this.everyAnswer;
    this.everyAnswer = undefined;
    if (base === undefined) return this.writeHeadWith(statusCode, message, given);
    // Headers set one by one already (`Connection: close` while shutting down), or given as a list:
    // Node merges those itself; the base goes in the same way, under what the route set.
    if (given === undefined || Array.isArray(given) || this.getHeaderNames().length > 0) {
      for (const name in base) if (!this.hasHeader(name)) this.setHeader(name, base[name]!);
      return this.writeHeadWith(statusCode, message, given);
    }
    const headersSent = { ...base, ...given };
    this.headersWrittenAtOnce = headersSent;
    return this.writeHeadWith(statusCode, message, headersSent);
  }

  /**
   * A header of this response, also once written at once (Node files only the headers set one by
   * one): the access log reads `Content-Length`.
   */
  override getHeader(name: string): number | string | string[] | undefined {
    const set = super.getHeader(name);
    const written = this.headersWrittenAtOnce;
    if (set !== undefined || written === undefined) return set;
    const lower = name.toLowerCase();
    for (const key in written) if (key.toLowerCase() === lower) return written[key];
    return undefined;
  }

  private writeHeadWith(statusCode: number, message: string | undefined, headers: HeadersGiven): this {
    return message === undefined ? super.writeHead(statusCode, headers) : super.writeHead(statusCode, message, headers);
  }
}
