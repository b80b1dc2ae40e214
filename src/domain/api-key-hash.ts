import { createHash } from 'node:crypto';

/**
 * The stored form of an application key: hex SHA-256. Keys are long random strings, so a fast
 * unsalted hash is enough to keep a database leak from revealing usable keys.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
