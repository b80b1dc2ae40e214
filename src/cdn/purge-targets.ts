import type { Config } from '../config.js';
import { CloudflarePurgeTarget } from './cloudflare-purge.js';
import { FastlyPurgeTarget } from './fastly-purge.js';
import type { PurgeTarget } from './purge-target.js';
import { VarnishPurgeTarget } from './varnish-purge.js';

/** Every place the settings say to purge after an import: each Varnish edge, Fastly, Cloudflare. */
export function purgeTargetsOf(config: Config): PurgeTarget[] {
  const targets: PurgeTarget[] = (config.CDN_PURGE_URLS ?? []).map((url) => new VarnishPurgeTarget(url));
  if (config.FASTLY_SERVICE_ID && config.FASTLY_API_TOKEN) {
    targets.push(new FastlyPurgeTarget({ serviceId: config.FASTLY_SERVICE_ID, token: config.FASTLY_API_TOKEN, apiUrl: config.FASTLY_API_URL }));
  }
  if (config.CLOUDFLARE_ZONE_ID && config.CLOUDFLARE_API_TOKEN) {
    targets.push(new CloudflarePurgeTarget({ zoneId: config.CLOUDFLARE_ZONE_ID, token: config.CLOUDFLARE_API_TOKEN, apiUrl: config.CLOUDFLARE_API_URL }));
  }
  return targets;
}
