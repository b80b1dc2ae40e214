import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system) a process has used so far, in ms: utime and stime of /proc/<pid>/stat
 * (fields 14 and 15, in clock ticks of 10 ms on Linux). The command name in parentheses may hold
 * spaces, so the fields are counted from its closing parenthesis.
 */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
