import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';

/** SHA-256 as hex with WebCrypto (https pages, localhost, Node ≥ 20): what the APQ link needs. */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function createApolloClient(endpoint: string, fetch: typeof globalThis.fetch = globalThis.fetch): ApolloClient {
  return new ApolloClient({
    link: new PersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
      // The service runs a GET only with this header (its CSRF rule); POSTs do not need it.
      new HttpLink({ uri: endpoint, headers: { 'Service-Require-Preflight': 'true' }, fetch }),
    ),
    cache: new InMemoryCache({
      typePolicies: {
        // One event appears once per date (groupRepetitionsByDay) and with another startDate once a
        // date has passed: its id alone would merge those nodes. Queries selecting an Event must
        // then select startDate too; `keyFields: false` keeps events unnormalised instead.
        Event: { keyFields: ['id', 'startDate'] },
      },
    }),
  });
}
