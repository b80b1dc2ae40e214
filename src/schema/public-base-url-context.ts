/**
 * What the HTTP layer adds to a request's context so resolvers can write absolute URLs to the
 * service itself (the demo pictures): its public base URL, PUBLIC_BASE_URL or the listening address.
 */
export interface PublicBaseUrlContext {
  publicBaseUrl?: string | undefined;
}

/** The base URL of the service as readers reach it, when the request's context carries one. */
export function publicBaseUrlOf(context: object): string | undefined {
  const value = (context as PublicBaseUrlContext).publicBaseUrl;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
