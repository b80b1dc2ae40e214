/**
 * One place the service purges after an import (a Varnish edge, Fastly, Cloudflare): takes the tags
 * of one purge and sends them in as many requests as its limits need. Throws PurgeRefused (or a
 * network error) when a request fails; the purger retries the whole purge (purges are idempotent).
 */
export interface PurgeTarget {
  /** For metrics and logs: `varnish`, `fastly`, `cloudflare` (bounded, never a URL or a token). */
  readonly kind: string;
  /** For logs: where it purges (an edge's URL, a service or zone id); never a token. */
  readonly name: string;
  purge(tags: readonly string[]): Promise<void>;
}

/** How long one purge request may take before it counts as failed. */
export const PURGE_REQUEST_TIMEOUT_MS = 5_000;

/** A purge request that reached its target and was refused (or answered an error). */
export class PurgeRefused extends Error {
  constructor(
    readonly status: number,
    detail: string,
    /** Retry-After of a 429 or 503, in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(`answered ${status}${detail ? `: ${detail}` : ''}`);
    this.name = 'PurgeRefused';
  }
}

/** A refusal from a response: its status, the start of its body, its Retry-After. */
export async function refusalOf(response: Response): Promise<PurgeRefused> {
  const body = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 200);
  const retryAfter = response.headers.get('retry-after');
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  return new PurgeRefused(response.status, body, seconds === undefined ? undefined : seconds * 1000);
}

/**
 * Splits tags into the batches one request may carry: at most `maxTags`, and joined by `separator`
 * at most `maxBytes` long (a tag longer than that alone is its own batch; the tags we make are short).
 */
export function tagBatches(tags: readonly string[], limits: { maxTags: number; maxBytes: number; separator: string }): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const tag of tags) {
    const added = Buffer.byteLength(tag) + (batch.length > 0 ? limits.separator.length : 0);
    if (batch.length > 0 && (batch.length >= limits.maxTags || bytes + added > limits.maxBytes)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    bytes += Buffer.byteLength(tag) + (batch.length > 0 ? limits.separator.length : 0);
    batch.push(tag);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
