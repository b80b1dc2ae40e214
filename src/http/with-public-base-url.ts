import type { GetEnveloped } from '../plugins/index.js';
import type { PublicBaseUrlContext } from '../schema/public-base-url-context.js';

/**
 * `getEnveloped` whose contexts carry the service's public base URL (read when each request starts:
 * the listening port is known only once the server listens, after the schema and plugins are built).
 */
export function withPublicBaseUrl(getEnveloped: GetEnveloped, publicBaseUrl: () => string | undefined): GetEnveloped {
  const perRequest = ((initialContext: Record<string, unknown> & PublicBaseUrlContext = {}) => {
    // Set on the caller's object, not a copy: the HTTP layer reads back what plugins leave on it.
    initialContext.publicBaseUrl = publicBaseUrl();
    return getEnveloped(initialContext);
  }) as GetEnveloped;
  perRequest._plugins = getEnveloped._plugins;
  return perRequest;
}

/**
 * The default public base URL: the address the service listens on, as a browser on this machine
 * reaches it (`0.0.0.0` and `::` mean every interface: `localhost`).
 */
export function listeningBaseUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
