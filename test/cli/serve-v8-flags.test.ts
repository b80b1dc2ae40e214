import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVE_V8_FLAGS, semiSpaceCapMb, workerExecArgv } from '../../src/cli/serve-v8-flags.js';

describe('calendar serve: V8 flags', () => {
  it('npm start runs the service with them (what docs/operating.md tells operators to pass)', () => {
    const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts['start']).toBe(`node ${SERVE_V8_FLAGS.join(' ')} bin/calendar.js serve`);
    expect(semiSpaceCapMb(SERVE_V8_FLAGS, '')).toBe(8);
  });

  it('reads the semi-space cap from the command line and NODE_OPTIONS, the command line last', () => {
    expect(semiSpaceCapMb([], '')).toBeNull();
    expect(semiSpaceCapMb(['--max-semi-space-size=16'], '')).toBe(16);
    expect(semiSpaceCapMb(['--max_semi_space_size', '4'], '')).toBe(4);
    expect(semiSpaceCapMb([], '--enable-source-maps  --max-semi-space-size=32')).toBe(32);
    expect(semiSpaceCapMb(['--max-semi-space-size=2'], '--max-semi-space-size=32')).toBe(2);
    expect(semiSpaceCapMb(['--max-old-space-size=4096', '--expose-gc'], '')).toBeNull();
  });

  it('gives forked workers the flags unless the operator chose a young-generation size', () => {
    expect(workerExecArgv(['--enable-source-maps'], '')).toEqual(['--enable-source-maps', ...SERVE_V8_FLAGS]);
    expect(workerExecArgv(['--max-semi-space-size=16'], '')).toEqual(['--max-semi-space-size=16']);
    expect(workerExecArgv([], '--max-semi-space-size=16')).toEqual([]);
  });
});
