import { PURGE_REQUEST_TIMEOUT_MS, PurgeRefused, refusalOf, tagBatches, type PurgeTarget } from './purge-target.js';

export interface CloudflarePurgeOptions {
  zoneId: string;
  token: string;
  /** @default https://api.cloudflare.com/client/v4 */
  apiUrl: string;
}

/**
 * Cloudflare's purge by cache tags: `POST /zones/<zone>/purge_cache` with `{"tags": [...]}`, at
 * most 100 tags per request (every plan), an API token (Cache Purge permission) as a bearer token.
 * A 200 whose body says `"success": false` is a refusal too. Rate limits answer 429 with
 * Retry-After, which the purger waits for.
 */
export class CloudflarePurgeTarget implements PurgeTarget {
  readonly kind = 'cloudflare';
  readonly name: string;
  private readonly endpoint: string;

  constructor(private readonly options: CloudflarePurgeOptions) {
    this.name = `cloudflare zone ${options.zoneId}`;
    this.endpoint = `${options.apiUrl.replace(/\/+$/, '')}/zones/${encodeURIComponent(options.zoneId)}/purge_cache`;
  }

  async purge(tags: readonly string[]): Promise<void> {
    for (const batch of tagBatches(tags, { maxTags: 100, maxBytes: Number.POSITIVE_INFINITY, separator: ',' })) {
      const response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tags: batch }),
        signal: AbortSignal.timeout(PURGE_REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) throw await refusalOf(response);
      const answer = (await response.json().catch(() => undefined)) as { success?: unknown; errors?: unknown } | undefined;
      if (answer?.success !== true) throw new PurgeRefused(response.status, `success is not true: ${JSON.stringify(answer?.errors ?? answer ?? null).slice(0, 200)}`);
    }
  }
}
