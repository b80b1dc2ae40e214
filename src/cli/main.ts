import { ConfigError } from '../config.js';

/** The `calendar` command: one file per subcommand, loaded on demand so `--help` stays fast. */
const subcommands: Record<string, { summary: string; load: () => Promise<(args: string[]) => Promise<number>> }> = {
  serve: { summary: 'run the API (migrates, seeds the demo calendar into an empty database)', load: async () => (await import('./serve.js')).runServe },
  migrate: { summary: 'bring the database schema up to date', load: async () => (await import('./migrate.js')).runMigrate },
  import: { summary: 'import FILE [--replace]: load a calendar file (see docs/import-format.md)', load: async () => (await import('./import.js')).runImport },
  seed: { summary: 'seed [--events N] [--seed S]: generate the demo calendar', load: async () => (await import('./seed.js')).runSeed },
  keys: { summary: 'keys add|revoke|list: manage application keys', load: async () => (await import('./keys.js')).runKeys },
  usage: { summary: 'usage [--days N] [--json]: request counts per key, client id and page origin', load: async () => (await import('./usage.js')).runUsage },
};

function usage(): string {
  const lines = Object.entries(subcommands).map(([name, s]) => `  ${name.padEnd(8)} ${s.summary}`);
  return `Usage: calendar <command> [options]\n\nCommands:\n${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command = subcommands[name];
  if (!command) {
    process.stderr.write(`calendar: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  return (await command.load())(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    // `serve` keeps running; the others exit with their code.
    if (code !== -1) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`calendar: ${error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
