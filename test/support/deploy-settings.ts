import { expect } from 'vitest';
import { SERVE_MALLOC_ENV } from '../../src/cli/malloc-settings.js';
import { readConfig, SETTING_NAMES } from '../../src/config.js';

/**
 * Checks the environment a deploy recipe sets: every name is a setting src/config.ts knows (or serve's
 * allocator setting, read by glibc: src/cli/malloc-settings.ts), and the values together pass its
 * validation (placeholders included), as `calendar serve` would read them.
 */
export function expectKnownSettings(env: Record<string, string>, where: string): void {
  const unknown = Object.keys(env).filter((name) => !SETTING_NAMES.includes(name) && !(name in SERVE_MALLOC_ENV));
  expect(unknown, `${where}: variables that are no setting of src/config.ts`).toEqual([]);
  expect(() => readConfig(env), `${where}: settings src/config.ts refuses`).not.toThrow();
}

/** `NAME=value` lines of an environment file (systemd's EnvironmentFile=, compose's env_file), comments left out. */
export function parseEnvironmentFile(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const at = line.indexOf('=');
      if (at < 1) throw new Error(`not NAME=value: ${line}`);
      return [line.slice(0, at), line.slice(at + 1).replace(/^"(.*)"$/, '$1')] as const;
    });
  return Object.fromEntries(entries);
}
