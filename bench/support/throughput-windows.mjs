/**
 * A probe to preload into a service under load (`node --import ./bench/support/throughput-windows.mjs …`):
 * it cuts time into 100 ms windows and keeps, per window, the HTTP responses finished, the process's own
 * CPU time and its garbage-collection time. On SIGUSR2 it writes one line to stderr about the windows since
 * the last one, and starts over: how many answers the slowest 5 % of windows finished against the median,
 * and what the process did in them. It tells a tail made by the service (the slow windows hold a collection,
 * or a long task) from one made by the machine (the service ran flat out in them and finished fewer answers:
 * a slower machine, which a virtual machine shows as CPU time, not steal). docs/performance.md, "A fourth pass".
 *
 *   taskset -c 0 node --max-semi-space-size=16 --no-allocation-site-pretenuring \
 *     --import ./bench/support/throughput-windows.mjs bin/calendar.js serve &
 *   taskset -c 1 wrk -c50 -d10s -s s2.lua http://127.0.0.1:4000/graphQL; kill -USR2 <pid>
 */
import diagnostics from 'node:diagnostics_channel';
import { PerformanceObserver } from 'node:perf_hooks';

const WINDOW_MS = 100;
let finished = 0;
let collecting = 0;
let windows = [];
let cpuAtStart = process.cpuUsage();

diagnostics.subscribe('http.server.response.finish', () => {
  finished += 1;
});
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collecting += entry.duration;
}).observe({ entryTypes: ['gc'] });
setInterval(() => {
  const cpu = process.cpuUsage();
  const cpuMs = (cpu.user - cpuAtStart.user + cpu.system - cpuAtStart.system) / 1000;
  windows.push({ finished, cpuMs, gcMs: collecting });
  cpuAtStart = cpu;
  finished = 0;
  collecting = 0;
}, WINDOW_MS).unref();

function mean(list, field) {
  return (list.reduce((sum, w) => sum + w[field], 0) / list.length).toFixed(1);
}

process.on('SIGUSR2', () => {
  const busy = windows.filter((w) => w.finished > 0).sort((a, b) => a.finished - b.finished);
  windows = [];
  if (busy.length === 0) return;
  const at = (share) => busy[Math.floor(share * (busy.length - 1))].finished;
  const slowest = busy.slice(0, Math.ceil(busy.length * 0.05));
  process.stderr.write(
    `windows of ${WINDOW_MS} ms: ${busy.length}; answers per window p5 ${at(0.05)}, p50 ${at(0.5)}, p95 ${at(0.95)}; ` +
      `slowest 5 %: ${mean(slowest, 'finished')} answers, CPU ${mean(slowest, 'cpuMs')} ms, GC ${mean(slowest, 'gcMs')} ms; ` +
      `all: CPU ${mean(busy, 'cpuMs')} ms, GC ${mean(busy, 'gcMs')} ms\n`,
  );
});
