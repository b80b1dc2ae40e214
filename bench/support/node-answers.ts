import type { PinnedProcess } from './pinned-process.js';

/**
 * The node's answer to a cacheable GET (what its answer cache and a CDN serve). A kept-alive connection
 * the node closed as the request went out (ECONNRESET, seen on a loaded machine) is asked again on a new one.
 */
export async function cachedGet(node: PinnedProcess, query: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`${node.url}?query=${encodeURIComponent(query)}`, { headers: { 'service-require-preflight': 'true' } });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`GET ${query}: ${response.status} ${text}`);
      return text;
    } catch (error) {
      if (!(error instanceof TypeError) || attempt >= 3) throw error; // fetch's own failure, not a status
    }
  }
}

/** The node's `read model built` lines so far, parsed. */
export function readModelBuilds(node: PinnedProcess): Record<string, unknown>[] {
  return logLinesOf(node, '"read model built"');
}

/** The node's JSON log lines whose text includes `marker` (a message in quotes, say). */
export function logLinesOf(node: PinnedProcess, marker: string): Record<string, unknown>[] {
  return node
    .log()
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
