import type { z } from 'zod';

/** Why `url` cannot be a PostgreSQL connection URL, or undefined when it can. */
export function malformedPostgresUrl(url: string): string | undefined {
  if (!/^postgres(ql)?:\/\//.test(url)) return `must be a postgres:// URL, got "${redactedPassword(url)}"`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `is not a well-formed URL: "${redactedPassword(url)}"`;
  }
  if (parsed.hostname === '') return `names no host: "${redactedPassword(url)}"`;
  return undefined;
}

/**
 * DATABASE_READ_URL: one replica URL, or several separated by commas (a URL needing a comma writes it
 * %2C). Each must be well formed: one malformed entry stops the service rather than being skipped.
 */
export function readReplicaUrls(value: string, context: z.RefinementCtx): string[] {
  const urls = value
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  if (urls.length === 0) context.addIssue({ code: 'custom', message: 'must list at least one postgres:// URL' });
  for (const url of urls) {
    const problem = malformedPostgresUrl(url);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  }
  return urls;
}

/** A URL for messages: its password (if any) replaced, even when the URL does not parse. */
function redactedPassword(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}
