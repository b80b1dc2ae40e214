import type { IncomingMessage } from 'node:http';

/** The JSON media types a GraphQL response may be sent as (GraphQL over HTTP). */
export type GraphQLMediaType = 'application/json' | 'application/graphql-response+json';

interface AcceptEntry {
  type: string;
  q: number;
  order: number;
}

function parseAccept(header: string | undefined): AcceptEntry[] {
  if (!header) return [];
  return header.split(',').flatMap((part, order) => {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!range) return [];
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return [{ type: range, q: Number.isFinite(q) ? q : 0, order }];
  });
}

/** Quality of `type` in the Accept list; `explicit` ignores wildcards. Absent: -1. */
function quality(entries: AcceptEntry[], type: string, explicit: boolean): { q: number; order: number } {
  const [major] = type.split('/');
  const match =
    entries.find((e) => e.type === type) ??
    (explicit ? undefined : (entries.find((e) => e.type === `${major}/*`) ?? entries.find((e) => e.type === '*/*')));
  return match ? { q: match.q, order: match.order } : { q: -1, order: Infinity };
}

/**
 * Spec, transport: the sandbox is "the same URL, opened by a request that accepts HTML". Only an
 * explicit text/html that is not ranked below JSON counts: `*\/*` (curl, fetch) gets JSON.
 */
export function prefersHtml(req: IncomingMessage): boolean {
  const entries = parseAccept(req.headers.accept);
  const html = quality(entries, 'text/html', true);
  if (html.q <= 0) return false;
  const json = Math.max(quality(entries, 'application/json', false).q, quality(entries, 'application/graphql-response+json', true).q);
  return html.q >= json;
}

/**
 * application/graphql-response+json only when the client names it and ranks it at least as high as
 * application/json; everything else (no Accept, `*\/*`, other types) gets application/json: the spec
 * says responses are always JSON, so there is no 406.
 */
export function negotiateGraphQLMediaType(req: IncomingMessage): GraphQLMediaType {
  const entries = parseAccept(req.headers.accept);
  const modern = quality(entries, 'application/graphql-response+json', true);
  if (modern.q <= 0) return 'application/json';
  const json = quality(entries, 'application/json', false);
  if (modern.q > json.q || (modern.q === json.q && modern.order <= json.order)) return 'application/graphql-response+json';
  return 'application/json';
}
