import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migratedDataDir } from '../support/migrated-data-dir.js';
import { logLines, startServiceProcess } from '../support/service-process.js';
import { SERVE_MALLOC_ENV } from '../../src/cli/malloc-settings.js';
import { allocationSitePretenuring, missingServeV8Flags, SERVE_V8_FLAGS, semiSpaceCapMb, workerExecArgv } from '../../src/cli/serve-v8-flags.js';

const MALLOC_WORDS = Object.entries(SERVE_MALLOC_ENV).map(([name, value]) => `${name}=${value}`).join(' ');

describe('calendar serve: V8 flags', () => {
  it('npm start runs the service with them (what docs/operating.md tells operators to pass)', () => {
    const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    // With serve's allocator setting in its environment first (malloc-settings.test.ts).
    expect(scripts['start']).toBe(`${MALLOC_WORDS} node ${SERVE_V8_FLAGS.join(' ')} bin/calendar.js serve`);
    expect(semiSpaceCapMb(SERVE_V8_FLAGS, '')).toBe(16);
    expect(allocationSitePretenuring(SERVE_V8_FLAGS, '')).toBe(false);
    expect(missingServeV8Flags(SERVE_V8_FLAGS, '')).toEqual([]);
  });

  it("the bin's shebang passes them (npx calendar, ./bin/calendar.js)", () => {
    const [shebang] = readFileSync(new URL('../../bin/calendar.js', import.meta.url), 'utf8').split('\n');
    expect(shebang).toBe(`#!/usr/bin/env -S ${MALLOC_WORDS} node ${SERVE_V8_FLAGS.join(' ')}`);
  });

  it("gives a primary's workers the ones it lacks, after none of its own, keeping those the operator set", () => {
    expect(workerExecArgv([], '')).toEqual(['--max-semi-space-size=16', '--no-allocation-site-pretenuring']);
    expect(workerExecArgv(SERVE_V8_FLAGS, '')).toEqual(SERVE_V8_FLAGS);
    expect(workerExecArgv(['--allocation-site-pretenuring', '--enable-source-maps'], '')).toEqual(['--max-semi-space-size=16', '--allocation-site-pretenuring', '--enable-source-maps']);
    // NODE_OPTIONS reaches the workers through the environment: not repeated on the command line.
    expect(workerExecArgv([], '--max-semi-space-size=32')).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('tells which of them the operator left unset, whatever the spelling, value or polarity', () => {
    expect(missingServeV8Flags([], '')).toEqual(['--max-semi-space-size=16', '--no-allocation-site-pretenuring']);
    expect(missingServeV8Flags(['--max_semi_space_size', '32'], '')).toEqual(['--no-allocation-site-pretenuring']);
    expect(missingServeV8Flags(['--allocation-site-pretenuring'], '--max-semi-space-size=0')).toEqual([]);
    expect(missingServeV8Flags(['--no_allocation_site_pretenuring', '--expose-gc'], '')).toEqual(['--max-semi-space-size=16']);
  });

  it("reads whether pretenuring is on from the last flag that says (on: V8's default)", () => {
    expect(allocationSitePretenuring([], '')).toBe(true);
    expect(allocationSitePretenuring(['--no-allocation-site-pretenuring'], '')).toBe(false);
    expect(allocationSitePretenuring(['--no-allocation-site-pretenuring', '--allocation_site_pretenuring'], '')).toBe(true);
    expect(allocationSitePretenuring(['--max-semi-space-size=16'], '')).toBe(true);
  });

  it('reads the semi-space cap from the command line and NODE_OPTIONS, the command line last', () => {
    expect(semiSpaceCapMb([], '')).toBeNull();
    expect(semiSpaceCapMb(['--max-semi-space-size=16'], '')).toBe(16);
    expect(semiSpaceCapMb(['--max_semi_space_size', '4'], '')).toBe(4);
    expect(semiSpaceCapMb([], '--enable-source-maps  --max-semi-space-size=32')).toBe(32);
    expect(semiSpaceCapMb(['--max-semi-space-size=2'], '--max-semi-space-size=32')).toBe(2);
    expect(semiSpaceCapMb(['--max-old-space-size=4096', '--expose-gc'], '')).toBeNull();
  });
});

describe('calendar serve started with or without them', { timeout: 60_000 }, () => {
  const MISSING = 'started without the V8 flags ';
  const started = async (env: Record<string, string>, options: { nodeArgs?: readonly string[]; direct?: boolean } = {}) => {
    // A migrated database of its own: what is tested is the process's flags, not a first start.
    const dataDir = await migratedDataDir();
    const service = startServiceProcess({ CALENDAR_DATA_DIR: dataDir.path, DEMO_EVENTS: '0', ...env }, options);
    try {
      await service.listening;
      // The start-up line is written just after "listening on".
      for (let i = 0; i < 50 && logLines(service.stderr(), 'service started').length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      return { line: logLines(service.stderr(), 'service started')[0], warnings: logLines(service.stderr(), MISSING), pid: service.child.pid };
    } finally {
      await service.stop();
      await dataDir.remove();
    }
  };

  it("started as node bin/calendar.js serve: warns once, naming them and how to pass them, and runs with V8's defaults", async () => {
    const { line, warnings, pid } = await started({});
    expect(warnings).toEqual([
      {
        level: 40,
        time: expect.any(Number),
        missingV8Flags: ['--max-semi-space-size=16', '--no-allocation-site-pretenuring'],
        msg:
          "started without the V8 flags --max-semi-space-size=16 --no-allocation-site-pretenuring: running with V8's defaults for them; " +
          "pass them on node's command line (node --max-semi-space-size=16 --no-allocation-site-pretenuring bin/calendar.js serve), " +
          'as npm start and ./bin/calendar.js do (docs/operating.md, "Node flags")',
      },
    ]);
    // No restart: the process spawned is the one that serves.
    expect(line).toMatchObject({ semiSpaceCapMb: null, allocationSitePretenuring: true, pid });
  });

  it('started as npm start does: no warning', async () => {
    const { line, warnings } = await started({}, { nodeArgs: SERVE_V8_FLAGS });
    expect(warnings).toEqual([]);
    expect(line).toMatchObject({ semiSpaceCapMb: 16, allocationSitePretenuring: false });
  });

  it('started as ./bin/calendar.js serve (its shebang): no warning', async () => {
    // The shebang's `env` finds the node of this test first on PATH.
    const { line, warnings } = await started({ PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` }, { direct: true });
    expect(warnings).toEqual([]);
    expect(line).toMatchObject({ semiSpaceCapMb: 16, allocationSitePretenuring: false });
  });

  it('keeps a young-generation size the operator set in NODE_OPTIONS, naming only the flag it lacks', async () => {
    const { line, warnings } = await started({ NODE_OPTIONS: '--max-semi-space-size=32' });
    expect(line).toMatchObject({ semiSpaceCapMb: 32, allocationSitePretenuring: true });
    expect(warnings.map((warning) => warning['missingV8Flags'])).toEqual([['--no-allocation-site-pretenuring']]);
  });

  it('keeps pretenuring on when the operator turned it on (the flag is not allowed in NODE_OPTIONS: command line)', async () => {
    const { line, warnings } = await started({}, { nodeArgs: ['--allocation-site-pretenuring'] });
    expect(line).toMatchObject({ semiSpaceCapMb: null, allocationSitePretenuring: true });
    expect(warnings.map((warning) => warning['missingV8Flags'])).toEqual([['--max-semi-space-size=16']]);
  });

  it('keeps V8 its own sizing when asked with --max-semi-space-size=0', async () => {
    const { line } = await started({ NODE_OPTIONS: '--max-semi-space-size=0' });
    expect(line).toMatchObject({ semiSpaceCapMb: 0 });
  });
});
