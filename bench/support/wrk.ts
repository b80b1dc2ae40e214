import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PinnedProcess } from './pinned-process.js';
import { processCpuMs } from './process-cpu.js';

/** A server under load: its process (for its CPU time) and its origin. */
export interface LoadedServer extends PinnedProcess {
  origin: string;
}

export const withOrigin = (server: PinnedProcess): LoadedServer => Object.assign(server, { origin: new URL(server.url).origin });

export interface Load {
  /** Median requests/s. */
  rate: number;
  /** The server's CPU per request (median round), in µs: holds when the machine is busy, unlike the rate. */
  cpuPerRequest: number;
  /** Median round's latency percentiles, in ms (wrk --latency). */
  p50Ms: number;
  p99Ms: number;
}

export interface WrkOptions {
  connections: number;
  rounds: number;
  seconds: number;
  headers?: Record<string, string> | undefined;
  /** A wrk Lua script (a POST body, a new request each time). */
  luaScript?: string | undefined;
  /** Seconds of warm-up before the rounds. @default 2 */
  warmUpSeconds?: number | undefined;
}

/** CPU time (user + system) a process has used so far, in µs. */
const cpuMicros = (pid: number) => processCpuMs(pid) * 1000;

const scripts = mkdtempSync(path.join(tmpdir(), 'bench-wrk-'));

/**
 * wrk (Debian's package) pinned to CPU 1 against one server (pinned to CPU 0 by startPinned): a
 * warm-up, then `rounds` rounds; fails on any non-2xx/3xx answer.
 */
export function wrk(server: LoadedServer, urlPath: string, options: WrkOptions): Load {
  const args = ['-c', '1', 'wrk', '-t1', `-c${options.connections}`, '--latency'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (options.luaScript) {
    const file = path.join(scripts, `script-${Math.random().toString(36).slice(2)}.lua`);
    writeFileSync(file, options.luaScript);
    args.push('-s', file);
  }
  const run = (duration: number) => {
    const cpuBefore = cpuMicros(server.child.pid!);
    const out = execFileSync('taskset', [...args, `-d${duration}s`, server.origin + urlPath], { encoding: 'utf8' });
    const cpu = cpuMicros(server.child.pid!) - cpuBefore;
    if (/Non-2xx or 3xx responses: (\d+)/.test(out)) throw new Error(`wrk saw failed responses on ${urlPath}:\n${out}`);
    const perSecond = /Requests\/sec:\s+([\d.]+)/.exec(out);
    const total = /(\d+) requests in/.exec(out);
    if (!perSecond || !total) throw new Error(`wrk printed no rate:\n${out}`);
    return { rate: Number(perSecond[1]), cpuPerRequest: cpu / Number(total[1]), p50Ms: percentile(out, 50), p99Ms: percentile(out, 99) };
  };
  run(options.warmUpSeconds ?? 2);
  const results = Array.from({ length: options.rounds }, () => run(options.seconds));
  return { rate: median(results.map((r) => r.rate)), cpuPerRequest: median(results.map((r) => r.cpuPerRequest)), p50Ms: median(results.map((r) => r.p50Ms)), p99Ms: median(results.map((r) => r.p99Ms)) };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A percentile of wrk's "Latency Distribution", in ms (wrk prints us, ms or s). */
function percentile(out: string, p: number): number {
  const match = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

/**
 * A wrk Lua script POSTing JSON: `body` is a Lua expression (it may use the counter `n`, one more per
 * request, from `firstN`, a Lua expression too), with the headers given to wrk (wrk.format replaces
 * them by the table it is given, so they are copied into it).
 */
export function postScript(urlPath: string, body: string, firstN = '0'): string {
  return `
    local n = ${firstN}
    local headers = { ["Content-Type"] = "application/json" }
    for name, value in pairs(wrk.headers) do headers[name] = value end
    request = function()
      n = n + 1
      return wrk.format("POST", "${urlPath}", headers, ${body})
    end`;
}
