// Which Node this project runs on: the minimum is package.json's `engines.node` (">=X.Y.Z"), read
// here so it is written once. Plain JavaScript with no dependency, so that bin/calendar.js (before
// tsx is loaded) and vitest.config.ts (before any test) stop on an older Node with one line, instead
// of failing later in ways that do not say why (`.npmrc`'s engine-strict stops `npm ci` the same way).
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const minimum = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(engines.node);
if (!minimum) throw new Error(`package.json: engines.node must read ">=X.Y.Z" (bin/node-version-check.js reads it), not ${JSON.stringify(engines.node)}`);
const neededParts = minimum.slice(1).map(Number);
// "22.18" for ">=22.18.0".
const needed = minimum.slice(1).join('.').replace(/\.0$/, '');

/** Whether `version` ("20.20.2", no "v") is older than package.json's minimum. */
function isOlder(version) {
  const parts = version.split('.').map((part) => Number.parseInt(part, 10));
  for (let i = 0; i < 3; i++) {
    if ((parts[i] ?? 0) !== neededParts[i]) return (parts[i] ?? 0) < neededParts[i];
  }
  return false;
}

/** How to get a Node that fits: the official builds on npm exist for Linux only (node-linux-<arch>). */
function howToGetIt(platform, arch) {
  const fromNodejsOrg = 'install an LTS release from nodejs.org';
  if (platform !== 'linux' || (arch !== 'x64' && arch !== 'arm64')) return fromNodejsOrg;
  const pkg = `node-linux-${arch}`;
  return `${fromNodejsOrg}, or \`npm i --prefix ~/node ${pkg}@24\` and put ~/node/node_modules/${pkg}/bin first on PATH`;
}

/** The line that says this Node is too old and how to get one that fits; null when it fits. */
export function nodeVersionCheck(version = process.versions.node, platform = process.platform, arch = process.arch) {
  if (!isOlder(version)) return null;
  return `Node ${needed} or later is needed (this is ${version}): ${howToGetIt(platform, arch)}`;
}

/** On a Node older than the minimum: that one line on stderr, and exit status 1. */
export function exitOnUnsupportedNode(version = process.versions.node) {
  const problem = nodeVersionCheck(version);
  if (problem === null) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
