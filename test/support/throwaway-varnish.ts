import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './throwaway-postgres.js';
import { recordPhase } from './phase-timings.js';

const VARNISHD = ['/usr/sbin/varnishd', '/usr/bin/varnishd', '/usr/local/sbin/varnishd'].find((path) => existsSync(path));
const XKEY = ['/usr/lib/x86_64-linux-gnu/varnish/vmods/libvmod_xkey.so', '/usr/lib/aarch64-linux-gnu/varnish/vmods/libvmod_xkey.so'].find((path) => existsSync(path));
const ci = process.env['CI'] !== undefined && !['', '0', 'false'].includes(process.env['CI'].toLowerCase());

/** Why the CDN edge tests cannot run here, or undefined when they can (in CI they always run: a missing Varnish fails them). */
export function throwawayVarnishUnavailable(): string | undefined {
  if (ci) return undefined;
  if (!VARNISHD) return 'no varnishd (apt-get install varnish varnish-modules)';
  if (!XKEY) return 'no xkey vmod (apt-get install varnish-modules)';
  return undefined;
}

/** A Varnish edge of the test's own on a free port, running the shipped VCL in front of the test's nodes. */
export interface ThrowawayVarnish {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Whether the edge's probe holds each backend healthy (`varnishadm backend.list`), by backend name (`node_1`, ...). */
  backendHealth(): Promise<Record<string, boolean>>;
  stop(): Promise<void>;
}

/** The ports of the shipped VCL's backends (`node_1`, `node_2`), replaced by the test's nodes' ports. */
const SHIPPED_BACKEND_PORTS = ['4000', '4001'];

/**
 * Starts `varnishd` in the foreground with deploy/varnish/default.vcl, its backends pointed at
 * 127.0.0.1:`backendPorts` (one port: both backends at that one node), listening on `options.port`
 * (a free one by default: a service that purges it needs its address before it starts); `options.vcl`
 * alters it further (bench/ only: the tests run the shipped file). Run as docs/cdn.md says: idle
 * connections to a node closed by the edge before the node's keep-alive timeout (5 s). varnishd
 * compiles and reads the VCL as its own unprivileged user: the folder and file are world-readable.
 */
export async function startThrowawayVarnish(
  backendPorts: number | readonly [number, number],
  options: { port?: number; vcl?: (shipped: string) => string } = {},
): Promise<ThrowawayVarnish> {
  const started = performance.now();
  if (!VARNISHD) throw new Error(`varnishd is required${ci ? ' in CI (CI is set)' : ''}: apt-get install varnish varnish-modules`);
  const dir = mkdtempSync(join(tmpdir(), 'calendar-varnish-'));
  chmodSync(dir, 0o755);
  const shipped = readFileSync(new URL('../../deploy/varnish/default.vcl', import.meta.url), 'utf8');
  const ports = typeof backendPorts === 'number' ? [backendPorts, backendPorts] : backendPorts;
  let vcl = shipped;
  for (const [i, placeholder] of SHIPPED_BACKEND_PORTS.entries()) {
    const line = `.port = "${placeholder}";`;
    if (!vcl.includes(line)) throw new Error(`deploy/varnish/default.vcl has no \`${line}\` to point at the test's node`);
    vcl = vcl.replace(line, `.port = "${ports[i]!}";`);
  }
  const vclPath = join(dir, 'default.vcl');
  writeFileSync(vclPath, options.vcl ? options.vcl(vcl) : vcl);
  chmodSync(vclPath, 0o644);
  const port = options.port ?? (await freePort());
  const workDir = join(dir, 'work');
  const child: ChildProcess = spawn(VARNISHD, ['-F', '-a', `127.0.0.1:${port}`, '-f', vclPath, '-n', workDir, '-s', 'malloc,64m', '-p', 'backend_idle_timeout=4'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, (attempt) => child.exitCode !== null || attempt > 200, () => new Error(`varnishd did not start: ${errors}`));
  recordPhase('varnish', performance.now() - started);
  return {
    origin: `http://127.0.0.1:${port}`,
    backendHealth: () => backendHealthOf(workDir),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `varnishadm backend.list` of the varnishd in `workDir`: a line per backend, `<vcl>.<name> <admin> <probe> <healthy|sick> ...`. */
function backendHealthOf(workDir: string): Promise<Record<string, boolean>> {
  return new Promise((resolve, reject) => {
    execFile('varnishadm', ['-n', workDir, 'backend.list'], { timeout: 5_000 }, (error, stdout) => {
      if (error) return reject(new Error(`varnishadm backend.list failed: ${error.message}`));
      const health: Record<string, boolean> = {};
      for (const line of stdout.split('\n').slice(1)) {
        const [name, , , state] = line.trim().split(/\s+/);
        if (name && state) health[name.slice(name.indexOf('.') + 1)] = state === 'healthy';
      }
      resolve(health);
    });
  });
}
