import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './throwaway-postgres.js';

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

/** A Varnish edge of the test's own on a free port, running the shipped VCL in front of one service. */
export interface ThrowawayVarnish {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  stop(): Promise<void>;
}

/**
 * Starts `varnishd` in the foreground with deploy/varnish/default.vcl, its backend pointed at
 * 127.0.0.1:`backendPort`, listening on `options.port` (a free one by default: a service that purges
 * it needs its address before it starts). varnishd compiles and reads the VCL as its own unprivileged user: the
 * folder and file are world-readable.
 */
export async function startThrowawayVarnish(backendPort: number, options: { port?: number } = {}): Promise<ThrowawayVarnish> {
  if (!VARNISHD) throw new Error(`varnishd is required${ci ? ' in CI (CI is set)' : ''}: apt-get install varnish varnish-modules`);
  const dir = mkdtempSync(join(tmpdir(), 'calendar-varnish-'));
  chmodSync(dir, 0o755);
  const shipped = readFileSync(new URL('../../deploy/varnish/default.vcl', import.meta.url), 'utf8');
  const vcl = shipped.replace('.port = "4000";', `.port = "${backendPort}";`);
  if (vcl === shipped) throw new Error('deploy/varnish/default.vcl has no `.port = "4000";` to point at the test service');
  const vclPath = join(dir, 'default.vcl');
  writeFileSync(vclPath, vcl);
  chmodSync(vclPath, 0o644);
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(VARNISHD, ['-F', '-a', `127.0.0.1:${port}`, '-f', vclPath, '-n', join(dir, 'work'), '-s', 'malloc,64m'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, (attempt) => child.exitCode !== null || attempt > 200, () => new Error(`varnishd did not start: ${errors}`));
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
