import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { logLines, startServiceProcess } from '../support/service-process.js';
import { allocationSitePretenuring, missingServeV8Flags, SERVE_V8_FLAGS, semiSpaceCapMb } from '../../src/cli/serve-v8-flags.js';

describe('calendar serve: V8 flags', () => {
  it('npm start runs the service with them (what docs/operating.md tells operators to pass)', () => {
    const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts['start']).toBe(`node ${SERVE_V8_FLAGS.join(' ')} bin/calendar.js serve`);
    expect(semiSpaceCapMb(SERVE_V8_FLAGS, '')).toBe(8);
    expect(allocationSitePretenuring(SERVE_V8_FLAGS, '')).toBe(false);
    expect(missingServeV8Flags(SERVE_V8_FLAGS, '')).toEqual([]);
  });

  it('tells which of them the operator left unset, whatever the spelling, value or polarity', () => {
    expect(missingServeV8Flags([], '')).toEqual(['--max-semi-space-size=8', '--no-allocation-site-pretenuring']);
    expect(missingServeV8Flags(['--max_semi_space_size', '16'], '')).toEqual(['--no-allocation-site-pretenuring']);
    expect(missingServeV8Flags(['--allocation-site-pretenuring'], '--max-semi-space-size=0')).toEqual([]);
    expect(missingServeV8Flags(['--no_allocation_site_pretenuring', '--expose-gc'], '')).toEqual(['--max-semi-space-size=8']);
  });

  it("reads whether pretenuring is on from the last flag that says (on: V8's default)", () => {
    expect(allocationSitePretenuring([], '')).toBe(true);
    expect(allocationSitePretenuring(['--no-allocation-site-pretenuring'], '')).toBe(false);
    expect(allocationSitePretenuring(['--no-allocation-site-pretenuring', '--allocation_site_pretenuring'], '')).toBe(true);
    expect(allocationSitePretenuring(['--max-semi-space-size=8'], '')).toBe(true);
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

describe('calendar serve started without them', { timeout: 60_000 }, () => {
  const EMBEDDED = { CALENDAR_DATA_DIR: 'memory://', DEMO_EVENTS: '0' };
  const startedLine = async (env: Record<string, string>, nodeArgs: readonly string[] = []) => {
    const service = startServiceProcess({ ...EMBEDDED, ...env }, { nodeArgs });
    try {
      await service.listening;
      // The start-up line is written just after "listening on".
      for (let i = 0; i < 50 && logLines(service.stderr(), 'service started').length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      return { line: logLines(service.stderr(), 'service started')[0], pid: service.child.pid };
    } finally {
      await service.stop();
    }
  };

  it('keeps a young-generation size the operator set in NODE_OPTIONS, adding only the flag it lacks', async () => {
    const { line, pid } = await startedLine({ NODE_OPTIONS: '--max-semi-space-size=16' });
    expect(line).toMatchObject({ semiSpaceCapMb: 16, allocationSitePretenuring: false, pid });
  });

  it('keeps pretenuring on when the operator turned it on (the flag is not allowed in NODE_OPTIONS: command line)', async () => {
    const { line, pid } = await startedLine({}, ['--allocation-site-pretenuring']);
    expect(line).toMatchObject({ semiSpaceCapMb: 8, allocationSitePretenuring: true, pid });
  });

  it('keeps V8 its own sizing when asked with --max-semi-space-size=0', async () => {
    const { line } = await startedLine({ NODE_OPTIONS: '--max-semi-space-size=0' });
    expect(line).toMatchObject({ semiSpaceCapMb: 0 });
  });
});
