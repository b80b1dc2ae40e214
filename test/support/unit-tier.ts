import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import workerThreads from 'node:worker_threads';

/*
 * Setup of the fast tier (vitest.config.ts, project `unit`): its files must run in seconds on every
 * save, so nothing in them may start a process, a thread (the embedded database runs on one), or open
 * a connection (a database server, Redis, a browser, a server of the test's own). Each of those fails
 * here with a message that says where the file belongs instead, rather than slowing the tier unseen.
 */

function refuse(what: string): never {
  throw new Error(`The unit tier runs without ${what}: list this file under the integration tier (vitest.config.ts, UNIT_TESTS) or take ${what} out of it.`);
}

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  Object.defineProperty(childProcess, name, { value: () => refuse('child processes'), configurable: true, writable: true });
}
Object.defineProperty(workerThreads, 'Worker', {
  value: class {
    constructor() {
      refuse('threads (the embedded database runs on one)');
    }
  },
  configurable: true,
  writable: true,
});
net.Socket.prototype.connect = () => refuse('network connections');
net.Server.prototype.listen = () => refuse('listening sockets');
// The ES module views of these builtins (`import { spawn } from 'node:child_process'`) follow.
syncBuiltinESMExports();
