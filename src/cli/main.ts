import { StartupError } from '../startup-error.js';
import { findCommand, helpText, runCommand, type CommandGroup, type DefinedCommand } from './command.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { keysCommand } from './keys.js';
import { migrateCommand } from './migrate.js';
import { seedCommand } from './seed.js';
import { serveCommand } from './serve.js';
import { usageCommand } from './usage.js';

/**
 * The `calendar` command, one file per subcommand. The subcommand modules load their database
 * and service code inside `run` only, so `--help` and usage errors answer at once and touch nothing.
 */
const commands: Readonly<Record<string, DefinedCommand | CommandGroup>> = {
  serve: serveCommand,
  migrate: migrateCommand,
  import: importCommand,
  export: exportCommand,
  seed: seedCommand,
  keys: keysCommand,
  usage: usageCommand,
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return (
    'Usage: calendar <command> [options]\n\n' +
    `Commands:\n${lines.join('\n')}\n  ${'help'.padEnd(width)}  help [command]: this list, or a command's help\n\n` +
    'Run "calendar <command> --help" for a command\'s options. Configuration comes from the\n' +
    'environment (DATABASE_URL, CALENDAR_DATA_DIR, PORT, ...: README.md, Configuration).\n'
  );
}

/** `calendar help [command [action]]`. */
function help(words: readonly string[]): number {
  if (words.length === 0 || words[0] === '--help' || words[0] === '-h') {
    process.stdout.write(usage());
    return 0;
  }
  const command = findCommand(commands, words);
  if (!command) {
    process.stderr.write(`calendar help: unknown command "${words.join(' ')}"\n\n${usage()}`);
    return 2;
  }
  process.stdout.write(helpText(command));
  return 0;
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    process.stderr.write(`calendar: missing command\n\n${usage()}`);
    return 2;
  }
  if (name === 'help') return help(args);
  if (name === '--help' || name === '-h') return help([]);
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    const problem = name.startsWith('-') ? `unknown option ${name}` : `unknown command "${name}"`;
    process.stderr.write(`calendar: ${problem}\n\n${usage()}`);
    return 2;
  }
  return runCommand(command, args);
}

/** What an operator can act on is one line; anything unexpected keeps its stack for us. */
async function describeFailure(error: unknown): Promise<string> {
  // A StartupError's message is the whole story (database unreachable, port in use): one line.
  if (error instanceof StartupError) return error.message.replace(/\s*\n\s*/g, ' ');
  // Loaded here rather than at the top: the module is already in memory when readConfig threw,
  // and `--help` does not pay for the configuration schema.
  const { ConfigError } = await import('../config.js');
  if (error instanceof ConfigError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

main(process.argv.slice(2)).then(
  (code) => {
    // `serve` returns -1 and keeps running until a signal; the others exit with their status.
    if (code !== -1) process.exitCode = code;
  },
  async (error: unknown) => {
    process.stderr.write(`calendar: ${await describeFailure(error)}\n`);
    // Exit now rather than when the event loop drains: a half-started service (an open pool, a
    // timer) must not leave a failed command hanging. Writes to a pipe or file are synchronous here.
    process.exit(1);
  },
);
