import { existsSync } from 'node:fs';

const ci = process.env['CI'] !== undefined && !['', '0', 'false'].includes(process.env['CI'].toLowerCase());

/** An operator's tool from a Debian package that a deploy test runs (promtool, systemd-analyze). */
export interface OperatorTool {
  /** Its path, the first of the candidates that exists (the first candidate when none does). */
  path: string;
  /** Whether its tests run: always in CI (CI=true), where a missing tool fails them; elsewhere when it is installed. */
  run: boolean;
  /** Throws a message naming the package when the tool is missing (a test that runs must not pass unseen). */
  require(): string;
}

/**
 * Finds a tool; a machine without it skips its tests with one line saying how to get it (as the browser
 * tests do without Chromium, test/support/chromium.ts), while CI requires it: `.ci/run` installs the package.
 */
export function operatorTool(name: string, candidates: readonly string[], debianPackage: string): OperatorTool {
  const found = candidates.find((candidate) => existsSync(candidate));
  const path = found ?? candidates[0]!;
  if (!found && !ci) console.warn(`${name} tests skipped: no ${name} at ${candidates.join(' or ')}. To run them: apt-get install ${debianPackage}.`);
  return {
    path,
    run: found !== undefined || ci,
    require: () => {
      if (!found) throw new Error(`${name} is required${ci ? ' in CI (CI is set)' : ''} but is not installed at ${candidates.join(' or ')}: apt-get install ${debianPackage}`);
      return found;
    },
  };
}
