import { Client, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { persistedExchange } from '@urql/exchange-persisted';

export function createUrqlClient(endpoint: string, fetch: typeof globalThis.fetch = globalThis.fetch): Client {
  return new Client({
    url: endpoint,
    fetch,
    // urql sends short queries as GET by default: the service runs a GET only with this header.
    // (Or set `preferGetMethod: false` to POST everything, which no CDN caches.)
    fetchOptions: { headers: { 'Service-Require-Preflight': 'true' } },
    exchanges: [
      // Normalised cache: an event is one node per date, so key it by id and startDate (a DateTime: a string).
      cacheExchange({ keys: { Event: (event) => `${String(event['id'])}@${event['startDate'] as string}` } }),
      persistedExchange({ preferGetForPersistedQueries: true }),
      fetchExchange,
    ],
  });
}
