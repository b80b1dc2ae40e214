import { readFileSync, writeFileSync } from 'node:fs';

const statusKiB = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
};

/** A process's resident set now, in MB (VmRSS). */
export const residentMB = (pid: number): number => statusKiB(pid, 'VmRSS') / 1024;

/** A process's peak resident set since it started or since resetPeakResident, in MB (VmHWM). */
export const peakResidentMB = (pid: number): number => statusKiB(pid, 'VmHWM') / 1024;

/**
 * Starts a new peak: writing 5 to /proc/<pid>/clear_refs sets VmHWM to the current RSS (Linux 4.0+),
 * so the peak of one phase (an import) is measured without the process's start-up in it.
 */
export function resetPeakResident(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
