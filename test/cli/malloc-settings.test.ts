import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingMallocSettings, mmapThresholdOf, runsOnGlibc, SERVE_MALLOC_ENV, workerMallocEnv } from '../../src/cli/malloc-settings.js';
import { SERVE_V8_FLAGS } from '../../src/cli/serve-v8-flags.js';
import { migratedDataDir } from '../support/migrated-data-dir.js';
import { logLines, startServiceProcess } from '../support/service-process.js';

/*
 * Issue 54, item 3: glibc's mmap threshold fixed, so that the columns of a read-model build replaced by a
 * compaction go back to the system when V8 frees them (bench/freshness.ts measures the RSS; this tests that
 * every launch recipe sets it and that a process launched without it says so).
 */
describe('calendar serve: the allocator setting', () => {
  it('is glibc’s mmap threshold at 128 KiB, set by npm start and by the shebang before node starts', () => {
    expect(SERVE_MALLOC_ENV).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
    const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts['start']).toMatch(/^MALLOC_MMAP_THRESHOLD_=131072 node /);
    const [shebang] = readFileSync(new URL('../../bin/calendar.js', import.meta.url), 'utf8').split('\n');
    expect(shebang).toMatch(/^#!\/usr\/bin\/env -S MALLOC_MMAP_THRESHOLD_=131072 node /);
    // Linux reads 127 bytes of a shebang on kernels before 5.1: the whole line must fit.
    expect(Buffer.byteLength(shebang!)).toBeLessThanOrEqual(127);
  });

  it('reads the threshold from the variable or from the glibc tunable it is an alias of', () => {
    expect(mmapThresholdOf({})).toBeNull();
    expect(mmapThresholdOf({ MALLOC_MMAP_THRESHOLD_: '131072' })).toBe(131072);
    expect(mmapThresholdOf({ MALLOC_MMAP_THRESHOLD_: 'lots' })).toBeNull();
    expect(mmapThresholdOf({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=262144' })).toBe(262144);
    expect(mmapThresholdOf({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' })).toBeNull();
  });

  it('is missing only on glibc without a threshold of the operator’s own, and a primary gives it to its workers then', () => {
    expect(missingMallocSettings({}, true)).toEqual(['MALLOC_MMAP_THRESHOLD_=131072']);
    expect(missingMallocSettings({ MALLOC_MMAP_THRESHOLD_: '1048576' }, true)).toEqual([]);
    expect(missingMallocSettings({ GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=65536' }, true)).toEqual([]);
    // musl (Alpine) has no such setting.
    expect(missingMallocSettings({}, false)).toEqual([]);
    expect(workerMallocEnv({}, true)).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(workerMallocEnv({ MALLOC_MMAP_THRESHOLD_: '1048576' }, true)).toEqual({});
  });
});

describe.skipIf(!runsOnGlibc())('calendar serve launched with or without it (glibc)', { timeout: 60_000 }, () => {
  const MISSING = 'started without MALLOC_MMAP_THRESHOLD_';
  const started = async (env: Record<string, string>, options: { nodeArgs?: readonly string[]; direct?: boolean; until?: string } = {}) => {
    const dataDir = await migratedDataDir();
    const service = startServiceProcess({ CALENDAR_DATA_DIR: dataDir.path, DEMO_EVENTS: '0', ...env }, options);
    try {
      await service.listening;
      const until = options.until ?? 'service started';
      for (let i = 0; i < 100 && logLines(service.stderr(), until).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      return { line: logLines(service.stderr(), 'service started')[0], warnings: logLines(service.stderr(), MISSING), released: logLines(service.stderr(), 'read model memory released') };
    } finally {
      await service.stop();
      await dataDir.remove();
    }
  };

  it('node bin/calendar.js serve without it: warns once, saying what it costs and how to set it', async () => {
    const { line, warnings } = await started({}, { nodeArgs: SERVE_V8_FLAGS });
    expect(warnings).toEqual([
      {
        level: 40,
        time: expect.any(Number),
        missingEnvironment: ['MALLOC_MMAP_THRESHOLD_=131072'],
        msg:
          'started without MALLOC_MMAP_THRESHOLD_=131072 in its environment: glibc keeps the memory a replaced read-model build frees ' +
          '(after a compaction the RSS stays up to a third above steady); set it where the process is launched ' +
          '(MALLOC_MMAP_THRESHOLD_=131072 node … bin/calendar.js serve), as npm start and ./bin/calendar.js do (docs/operating.md, "Node flags")',
      },
    ]);
    expect(line).toMatchObject({ mallocMmapThreshold: null });
  });

  it('launched as npm start does: no warning, the threshold in the start-up line, the first build’s garbage given back', async () => {
    const { line, warnings, released } = await started({ ...SERVE_MALLOC_ENV }, { nodeArgs: SERVE_V8_FLAGS, until: 'read model memory released' });
    expect(warnings).toEqual([]);
    expect(line).toMatchObject({ mallocMmapThreshold: 131072 });
    // A second after the first full build: one collection (nothing was replaced), with what it took and gave back.
    expect(released).toEqual([expect.objectContaining({ collections: 1, longestPauseMs: expect.any(Number), rssBeforeMB: expect.any(Number), rssAfterMB: expect.any(Number) })]);
  });

  it('launched as ./bin/calendar.js serve (its shebang sets it): no warning', async () => {
    const { line, warnings } = await started({ PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` }, { direct: true });
    expect(warnings).toEqual([]);
    expect(line).toMatchObject({ mallocMmapThreshold: 131072 });
  });

  it('keeps a threshold the operator set as a glibc tunable', async () => {
    const { line, warnings } = await started({ GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=262144' }, { nodeArgs: SERVE_V8_FLAGS });
    expect(warnings).toEqual([]);
    expect(line).toMatchObject({ mallocMmapThreshold: 262144 });
  });
});
