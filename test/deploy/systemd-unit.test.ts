import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SERVE_MALLOC_ENV } from '../../src/cli/malloc-settings.js';
import { expectKnownSettings, parseEnvironmentFile } from '../support/deploy-settings.js';
import { operatorTool } from '../support/operator-tool.js';

const execFileAsync = promisify(execFile);
const UNIT = fileURLToPath(new URL('../../deploy/systemd/calendar.service', import.meta.url));
const ENV_EXAMPLE = fileURLToPath(new URL('../../deploy/systemd/calendar.env.example', import.meta.url));
const ALERTS = fileURLToPath(new URL('../../deploy/prometheus/alerts.yml', import.meta.url));
const systemdAnalyze = operatorTool('systemd-analyze', ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'], 'systemd');

/** The executables ExecStart may name that a verifying machine need not have: only the one the unit runs. */
const MAY_BE_MISSING = ['/usr/bin/node'];

/** The unit's `Key=value` lines by section (a key given twice keeps every value). */
function unitFile(text: string): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  let section = '';
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) section = header[1]!;
    else {
      const at = line.indexOf('=');
      const key = `${section}.${line.slice(0, at)}`;
      entries.set(key, [...(entries.get(key) ?? []), line.slice(at + 1)]);
    }
  }
  return entries;
}

const unit = unitFile(readFileSync(UNIT, 'utf8'));
const one = (key: string): string => {
  const values = unit.get(key);
  expect(values, key).toHaveLength(1);
  return values![0]!;
};
const seconds = (value: string): number => Number(/^(\d+)s?$/.exec(value)?.[1] ?? NaN);

describe('deploy/systemd/calendar.service', () => {
  it('runs the installed release with /usr/bin/node and the V8 flags', () => {
    expect(one('Service.ExecStart')).toBe('/usr/bin/node --max-semi-space-size=16 --no-allocation-site-pretenuring /srv/calendar/node_modules/event-calendar-api/bin/calendar.js serve');
    expect(one('Service.WorkingDirectory')).toBe('/srv/calendar');
  });

  it('stops as the drain needs: SIGTERM to the main process, SIGKILL to the rest only after a timeout longer than the drain', () => {
    expect(one('Service.KillMode')).toBe('mixed');
    expect(one('Service.KillSignal')).toBe('SIGTERM');
    // The drain is 5 s; with WORKERS > 1 the primary kills what still runs after 10 s: the timeout must exceed both.
    expect(seconds(one('Service.TimeoutStopSec'))).toBeGreaterThan(10);
    expect(one('Service.Restart')).toBe('on-failure');
  });

  it('is hardened', () => {
    for (const [key, value] of Object.entries({ DynamicUser: 'yes', NoNewPrivileges: 'yes', ProtectSystem: 'strict', ProtectHome: 'yes', PrivateTmp: 'yes', PrivateDevices: 'yes', CapabilityBoundingSet: '' })) {
      expect(one(`Service.${key}`), key).toBe(value);
    }
    // V8 writes the code it compiles: MemoryDenyWriteExecute=yes would stop node.
    expect(unit.has('Service.MemoryDenyWriteExecute')).toBe(false);
  });

  it('limits memory to the 1 GiB CalendarMemoryNearLimit warns at 90 % of', () => {
    expect(one('Service.MemoryMax')).toBe('1G');
    expect(readFileSync(ALERTS, 'utf8')).toContain('process_resident_memory_bytes{job="event-calendar-api"} > 0.9 * 1073741824');
  });

  it('sets only settings src/config.ts knows (and serve\'s allocator setting), in Environment= and in the example EnvironmentFile', () => {
    expect(one('Service.EnvironmentFile')).toBe('/etc/calendar/calendar.env');
    const inline = Object.fromEntries((unit.get('Service.Environment') ?? []).map((pair) => pair.split('=', 2) as [string, string]));
    expect(inline).toEqual({ MIGRATE: 'off', ...SERVE_MALLOC_ENV });
    const file = parseEnvironmentFile(readFileSync(ENV_EXAMPLE, 'utf8'));
    expectKnownSettings({ ...file, ...inline }, 'calendar.service with calendar.env.example');
  });
});

describe.skipIf(!systemdAnalyze.run)('deploy/systemd/calendar.service: systemd-analyze verify', () => {
  it('reports nothing but, where node is not installed at /usr/bin/node, that missing executable', async () => {
    const result = await execFileAsync(systemdAnalyze.require(), ['verify', UNIT]).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, output: (error.stdout ?? '') + (error.stderr ?? '') }),
    );
    const lines = result.output.split('\n').filter((line) => line.trim());
    const missing = lines.map((line) => /^calendar\.service: Command (\S+) is not executable: No such file or directory$/.exec(line)?.[1]);
    expect(lines.filter((_, i) => missing[i] === undefined), 'anything systemd-analyze reports but a missing executable').toEqual([]);
    for (const path of missing) expect(MAY_BE_MISSING).toContain(path);
    expect(result.code === 0 || missing.length > 0, `status ${result.code} with nothing reported`).toBe(true);
  });
});
