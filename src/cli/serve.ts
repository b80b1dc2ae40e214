import { defineCommand } from './command.js';
import { exactOperands } from './command-line.js';

/** `calendar serve`: runs the API until SIGINT/SIGTERM (what `npm start` does). */
export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'run the API (migrates, seeds the demo calendar into an empty database)',
  description: `
Runs the API until SIGINT or SIGTERM, then closes it and exits with status 0. At start it
migrates the database and seeds the demo calendar (DEMO_EVENTS events) into a database without
events, then prints "... listening on <url>" on stdout. Configured by environment variables
(PORT, HOST, DATABASE_URL, CALENDAR_DATA_DIR, LOG_LEVEL, ...: README.md, Configuration).`,
  options: {},
  parse: (line) => {
    exactOperands(line, []);
  },
  async run() {
    const started = Date.now();
    const { readConfig } = await import('../config.js');
    const { startService } = await import('../app.js');
    const config = readConfig();
    const service = await startService(config);
    process.stdout.write(`Event calendar API listening on ${service.url} (${service.database.driver}, ready in ${Date.now() - started} ms)\n`);
    const stop = () => {
      service.close().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`calendar serve: stopping failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
          process.exit(1);
        },
      );
    };
    // Once each: a second Ctrl-C while closing ends the process at once (Node's default).
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1;
  },
});
