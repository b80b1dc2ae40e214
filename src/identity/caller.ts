/**
 * Who is calling, as the key says. Spec, authentication: "The key is identity, not security"; an
 * unknown or revoked key is handled as anonymous, and the answer says so in `extensions.notice`.
 */
export type Caller =
  | { status: 'anonymous' }
  | { status: 'keyed'; keyHash: string; application: string }
  | { status: 'unknown' | 'revoked' };

/** The parts of an HTTP request identity reads: its headers, and its URL parameters when they may hold a key. */
export interface IncomingRequestView {
  headers: Record<string, string | string[] | undefined>;
  query?: Record<string, unknown> | undefined;
  /** The peer of the connection (`req.socket.remoteAddress`): with the trusted proxies' headers, who calls without a key. */
  socketAddress?: string | undefined;
}

/** A header's first value, trimmed; undefined when absent or blank. */
export function headerValue(request: IncomingRequestView | undefined, name: string): string | undefined {
  const value = request?.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}
