interface GraphQLResponse<TData> {
  data?: TData | null;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
  extensions?: { notice?: string };
}

/** POST: always accepted, never cached by a CDN. */
export async function postQuery<TData>(endpoint: string, query: string, variables: Record<string, unknown> = {}, apiKey?: string): Promise<TData> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(apiKey ? { 'X-Api-Key': apiKey } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return dataOf((await response.json()) as GraphQLResponse<TData>);
}

/** GET: cacheable by the browser and a CDN; the service runs it only with the preflight header. */
export async function getQuery<TData>(endpoint: string, query: string, variables: Record<string, unknown> = {}): Promise<TData> {
  const url = new URL(endpoint);
  url.searchParams.set('query', query);
  url.searchParams.set('variables', JSON.stringify(variables));
  const response = await fetch(url, { headers: { 'Service-Require-Preflight': 'true' } });
  return dataOf((await response.json()) as GraphQLResponse<TData>);
}

function dataOf<TData>(body: GraphQLResponse<TData>): TData {
  // Check `errors` in every answer, whatever the status: they may come with partial data.
  if (body.errors?.length) throw new Error(body.errors.map((error) => error.message).join('; '));
  if (body.extensions?.notice) console.info(body.extensions.notice);
  if (body.data == null) throw new Error('No data in the answer');
  return body.data;
}
