import { PURGE_REQUEST_TIMEOUT_MS, refusalOf, tagBatches, type PurgeTarget } from './purge-target.js';

/**
 * A Varnish edge running deploy/varnish/default.vcl: `PURGE <url>` with the tags space-separated
 * in `Surrogate-Key`, which the VCL soft-purges with xkey. Batched to 4 000 bytes of keys: Varnish
 * refuses request headers past `http_req_hdr_len` (8 KiB by default).
 */
export class VarnishPurgeTarget implements PurgeTarget {
  readonly kind = 'varnish';
  readonly name: string;

  constructor(private readonly url: string) {
    this.name = url;
  }

  async purge(tags: readonly string[]): Promise<void> {
    for (const batch of tagBatches(tags, { maxTags: Number.POSITIVE_INFINITY, maxBytes: 4_000, separator: ' ' })) {
      const response = await fetch(this.url, {
        method: 'PURGE',
        headers: { 'surrogate-key': batch.join(' ') },
        signal: AbortSignal.timeout(PURGE_REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) throw await refusalOf(response);
      await response.body?.cancel();
    }
  }
}
