import { asksForHelp, parseCommandLine, UsageError, type CommandLine, type OptionSpec } from './command-line.js';

/**
 * One `calendar` command. Reading the arguments (`parse`) is separate from doing the work (`run`):
 * `--help` and every bad argument are answered before `run` is called, so they never open the
 * database, and a command module imports its heavy dependencies inside `run` only.
 */
export interface Command<Input = unknown> {
  /** The words after `calendar`: `seed`, or `keys add` for an action of a group. */
  name: string;
  /** One line for `calendar help`. */
  summary: string;
  /** Operands in the synopsis, e.g. `FILE`. */
  operands?: string;
  /** Paragraphs printed by `--help` between the synopsis and the options. */
  description?: string;
  options: Readonly<Record<string, OptionSpec>>;
  /** Checks the arguments and returns what `run` needs; throws UsageError. Touches nothing outside. */
  parse(this: void, line: CommandLine): Input | Promise<Input>;
  /** Does the work; resolves with the exit status, or -1 for a command that keeps running (`serve`). */
  run(this: void, input: Input): Promise<number>;
}

/**
 * A command as the dispatcher holds it, whatever its input: `prepare` checks the arguments (throws
 * UsageError, touches nothing outside) and returns the work to do. Made by `defineCommand`, so the
 * input type stays between a command's own `parse` and `run`.
 */
export interface DefinedCommand extends Omit<Command, 'parse' | 'run'> {
  prepare(line: CommandLine): Promise<() => Promise<number>>;
}

/** A command whose first operand picks one of its actions: `calendar keys add|revoke|list`. */
export interface CommandGroup {
  name: string;
  summary: string;
  description?: string;
  actions: Readonly<Record<string, DefinedCommand>>;
}

/** Types `parse` and `run` against each other, and hides `Input` from the dispatcher. */
export function defineCommand<Input>(command: Command<Input>): DefinedCommand {
  const { parse, run, ...described } = command;
  return {
    ...described,
    prepare: async (line) => {
      const input = await parse(line);
      return () => run(input);
    },
  };
}

export function isCommandGroup(command: DefinedCommand | CommandGroup): command is CommandGroup {
  return 'actions' in command;
}

function synopsis(command: DefinedCommand): string {
  const options = Object.entries(command.options).map(([name, spec]) => {
    const text = `--${name}${spec.value ? ` ${spec.value}` : ''}`;
    return spec.required ? text : `[${text}]`;
  });
  return ['calendar', command.name, command.operands, ...options].filter(Boolean).join(' ');
}

function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n');
}

function optionsSection(command: DefinedCommand): string {
  const rows = Object.entries(command.options).map(([name, spec]) => [`--${name}${spec.value ? ` ${spec.value}` : ''}`, spec.description] as const);
  return `Options:\n${table([...rows, ['-h, --help', 'show this help']])}\n`;
}

/** Synopsis and options: what follows a usage error. */
export function usageText(command: DefinedCommand | CommandGroup): string {
  if (isCommandGroup(command)) {
    const rows = Object.values(command.actions).map((action) => [synopsis(action), action.summary] as const);
    return `Usage:\n${table(rows)}\n`;
  }
  return `Usage: ${synopsis(command)}\n\n${optionsSection(command)}`;
}

/** The whole `--help` text. */
export function helpText(command: DefinedCommand | CommandGroup): string {
  const description = command.description ? `\n${command.description.trim()}\n` : '';
  if (isCommandGroup(command)) {
    return `${usageText(command)}${description}\nRun "calendar ${command.name} <action> --help" for an action's options.\n`;
  }
  return `Usage: ${synopsis(command)}\n${description}\n${optionsSection(command)}`;
}

function reportUsageError(command: DefinedCommand | CommandGroup, message: string): number {
  process.stderr.write(`calendar ${command.name}: ${message}\n${usageText(command)}`);
  return 2;
}

/**
 * Runs `command` on its arguments: help on stdout with status 0; a bad argument on stderr with
 * the command's usage and status 2; otherwise what `run` resolves with. Other errors propagate.
 */
export async function runCommand(command: DefinedCommand | CommandGroup, args: readonly string[]): Promise<number> {
  if (isCommandGroup(command)) {
    const [action, ...rest] = args;
    if (action === undefined) return reportUsageError(command, 'missing action');
    if (action === '--help' || action === '-h' || action === 'help') {
      process.stdout.write(helpText(command));
      return 0;
    }
    const chosen = Object.hasOwn(command.actions, action) ? command.actions[action] : undefined;
    if (!chosen) return reportUsageError(command, action.startsWith('-') ? `unknown option ${action}` : `unknown action "${action}"`);
    return runCommand(chosen, rest);
  }
  if (asksForHelp(args)) {
    process.stdout.write(helpText(command));
    return 0;
  }
  let work: () => Promise<number>;
  try {
    work = await command.prepare(parseCommandLine(args, command.options));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return reportUsageError(command, error.message);
  }
  return work();
}

/** The command named by `words` (`['keys', 'add']`), for `calendar help keys add`. */
export function findCommand(root: Readonly<Record<string, DefinedCommand | CommandGroup>>, words: readonly string[]): DefinedCommand | CommandGroup | undefined {
  const [first, ...rest] = words;
  let found = first !== undefined && Object.hasOwn(root, first) ? root[first] : undefined;
  for (const word of rest) {
    if (!found || !isCommandGroup(found) || !Object.hasOwn(found.actions, word)) return undefined;
    found = found.actions[word];
  }
  return found;
}
