import { PURGE_REQUEST_TIMEOUT_MS, refusalOf, tagBatches, type PurgeTarget } from './purge-target.js';

export interface FastlyPurgeOptions {
  serviceId: string;
  token: string;
  /** @default https://api.fastly.com */
  apiUrl: string;
}

/**
 * Fastly's purge by surrogate keys: `POST /service/<id>/purge` with the keys space-separated in
 * `Surrogate-Key` (at most 256 per request), `Fastly-Soft-Purge: 1` (copies are marked stale, so
 * stale-while-revalidate and stale-if-error keep working) and the API token in `Fastly-Key`.
 */
export class FastlyPurgeTarget implements PurgeTarget {
  readonly kind = 'fastly';
  readonly name: string;
  private readonly endpoint: string;

  constructor(private readonly options: FastlyPurgeOptions) {
    this.name = `fastly service ${options.serviceId}`;
    this.endpoint = `${options.apiUrl.replace(/\/+$/, '')}/service/${encodeURIComponent(options.serviceId)}/purge`;
  }

  async purge(tags: readonly string[]): Promise<void> {
    for (const batch of tagBatches(tags, { maxTags: 256, maxBytes: 16_384, separator: ' ' })) {
      const response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'fastly-key': this.options.token, 'fastly-soft-purge': '1', 'surrogate-key': batch.join(' '), accept: 'application/json' },
        signal: AbortSignal.timeout(PURGE_REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) throw await refusalOf(response);
      await response.body?.cancel();
    }
  }
}
