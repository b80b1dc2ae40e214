/**
 * The words after `calendar <command>`, read by our own rules rather than node:util's parseArgs:
 * parseArgs refuses `--events -5` as "ambiguous" before the command could say what it accepts,
 * and names none of its rules. Here a `--name VALUE` option takes the next word whatever it looks
 * like (as getopt does), so the command's own check reports `-5` in its own words.
 */

/** One option of a command: a flag (`--replace`), or `--name VALUE` when `value` names the placeholder. */
export interface OptionSpec {
  /** Placeholder of the value in the synopsis (`N` gives `--events N`); absent: a flag without a value. */
  value?: string;
  /** The option must be given (shown without brackets in the synopsis). @default false */
  required?: boolean;
  /** One line for `--help`. */
  description: string;
}

export interface CommandLine {
  /** The options given: the text of a `--name VALUE` option, `true` for a flag. */
  options: Readonly<Record<string, string | true>>;
  /** The words that are not options, in order (everything after `--` included). */
  operands: readonly string[];
}

/** A bad argument: the command prints the message and its usage, and exits with status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `-h` or `--help` before any `--`: the command prints its help, whatever else is on the line. */
export function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/** Reads `args` against the command's options; throws UsageError on an unknown, repeated or incomplete option. */
export function parseCommandLine(args: readonly string[], specs: Readonly<Record<string, OptionSpec>>): CommandLine {
  const options: Record<string, string | true> = {};
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      operands.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    const equals = arg.indexOf('=');
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (!spec) throw new UsageError(`unknown option --${name}`);
    if (Object.hasOwn(options, name)) throw new UsageError(`--${name} is given twice`);
    if (spec.value === undefined) {
      if (equals !== -1) throw new UsageError(`--${name} takes no value`);
      options[name] = true;
    } else if (equals !== -1) {
      options[name] = arg.slice(equals + 1);
    } else {
      // The next word is the value, even when it starts with "-" (a negative number is then
      // refused by the command's rule); only a following "--option" means the value is missing.
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${name} needs a value (${spec.value})`);
      options[name] = next;
      i += 1;
    }
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.required && !Object.hasOwn(options, name)) throw new UsageError(`--${name}${spec.value ? ` ${spec.value}` : ''} is required`);
  }
  return { options, operands };
}

/** The text of a `--name VALUE` option, or `fallback` when it is not given. */
export function optionText(line: CommandLine, name: string, fallback: string): string;
export function optionText(line: CommandLine, name: string): string | undefined;
export function optionText(line: CommandLine, name: string, fallback?: string): string | undefined {
  const value = line.options[name];
  return typeof value === 'string' ? value : fallback;
}

/** Whether the flag `--name` is given. */
export function flag(line: CommandLine, name: string): boolean {
  return line.options[name] === true;
}

/** `--name` as a whole number within [min, max]; the message states the rule and what was given. */
export function wholeNumber(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

/**
 * The operands, exactly as many as `names` (the placeholders of the synopsis, e.g. `FILE`):
 * a missing one is named, the first extra one is quoted.
 */
export function exactOperands(line: CommandLine, names: readonly string[]): string[] {
  const missing = names[line.operands.length];
  if (missing !== undefined) throw new UsageError(`missing ${missing}`);
  const extra = line.operands[names.length];
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  return [...line.operands];
}
