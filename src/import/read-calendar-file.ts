import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { none } from 'stream-chain/defs.js';
import Assembler from 'stream-json/assembler.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import type { CalendarPart } from './calendar-parts.js';
import { describe } from './import-problems.js';

/** The file could not be read to its end, or is not JSON. Reported instead of any other problem. */
export class CalendarFileError extends Error {
  readonly reason: 'unreadable' | 'invalidJson';

  constructor(reason: 'unreadable' | 'invalidJson', message: string) {
    super(message);
    this.name = 'CalendarFileError';
    this.reason = reason;
  }
}

// Small reads keep the tokenizer's buffer short; larger ones measured no faster (64 KiB: 1.7 s for
// a 187 MB file, 1 MiB: 2.4 s).
const READ_SIZE = 64 * 1024;

type Tokenize = (chunk: string | typeof none) => typeof none | { values: Token[] };

type State =
  | 'root' // before the document's value
  | 'keys' // in the top-level object, before a key or its end
  | 'value' // after a top-level key, before its value
  | 'list' // in a top-level list, before an element or the list's end
  | 'element' // assembling one element
  | 'skip' // passing over a value nobody reads (an object under a top-level key, a root that is no object)
  | 'done';

function scalar(token: Token): unknown {
  switch (token.name) {
    case 'stringValue':
      return token.value;
    case 'numberValue':
      return Number(token.value);
    case 'nullValue':
      return null;
    case 'trueValue':
      return true;
    case 'falseValue':
      return false;
    default:
      return undefined;
  }
}

function syntaxMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Parser (cannot parse input: |has )/, '');
}

/**
 * Reads a calendar file as a stream: the top-level keys, then each element of each top-level list
 * as soon as it is complete, never the whole document. The tokenizer is stream-json's, driven
 * directly with the file's text (through Node streams it is about four times slower); elements
 * are assembled by its Assembler, which builds values exactly as JSON.parse does.
 *
 * Throws CalendarFileError when the file cannot be read or is not JSON, which may only show at
 * its very end (a truncated file): the loader must not commit before this has run to completion.
 */
export async function* readCalendarFile(file: FileHandle): AsyncGenerator<CalendarPart> {
  // streamValues: false: packed tokens only, the ones the Assembler reads (a third as many tokens).
  const tokenize = jsonParser({ streamValues: false }) as unknown as Tokenize;
  const decoder = new StringDecoder('utf8');
  let state: State = 'root';
  let afterSkip: State = 'done';
  let depth = 0;
  let key = '';
  let assembler: Assembler | null = null;
  let bytes = 0;
  let first = true;

  function* consume(tokens: readonly Token[]): Generator<CalendarPart> {
    for (const token of tokens) {
      switch (state) {
        case 'element':
          assembler!.consume(token);
          if (assembler!.done) {
            yield { kind: 'element', value: assembler!.current };
            assembler = null;
            state = 'list';
          }
          break;
        case 'skip':
          if (token.name === 'startObject' || token.name === 'startArray') depth++;
          else if (token.name === 'endObject' || token.name === 'endArray') depth--;
          if (depth === 0) state = afterSkip;
          break;
        case 'root':
          if (token.name === 'startObject') state = 'keys';
          else {
            yield { kind: 'notAnObject', description: token.name === 'startArray' ? 'a list' : describe(scalar(token)) };
            if (token.name === 'startArray') {
              depth = 1;
              afterSkip = 'done';
              state = 'skip';
            } else state = 'done';
          }
          break;
        case 'keys':
          if (token.name === 'keyValue') {
            key = token.value;
            state = 'value';
          } else state = 'done'; // endObject: the tokenizer accepts nothing else here
          break;
        case 'value':
          if (token.name === 'startArray') {
            yield { kind: 'list', key };
            state = 'list';
          } else if (token.name === 'startObject') {
            yield { kind: 'value', key, description: 'an object' };
            depth = 1;
            afterSkip = 'keys';
            state = 'skip';
          } else {
            yield { kind: 'value', key, description: describe(scalar(token)) };
            state = 'keys';
          }
          break;
        case 'list':
          if (token.name === 'endArray') {
            yield { kind: 'end' };
            state = 'keys';
          } else if (token.name === 'startObject' || token.name === 'startArray') {
            assembler = new Assembler();
            assembler.consume(token);
            state = 'element';
          } else yield { kind: 'element', value: scalar(token) };
          break;
        case 'done':
          break;
      }
    }
  }

  try {
    for await (const chunk of file.createReadStream({ highWaterMark: READ_SIZE, autoClose: false, start: 0 }) as AsyncIterable<Buffer>) {
      const start = bytes;
      bytes += chunk.length;
      let text = decoder.write(chunk);
      // A byte-order mark is no JSON, but editors write one; JSON.parse after readFile rejected it.
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
      let tokens: ReturnType<Tokenize>;
      try {
        tokens = tokenize(text);
      } catch (error) {
        throw new CalendarFileError('invalidJson', `${syntaxMessage(error)} between bytes ${start} and ${bytes}`);
      }
      if (tokens !== none) yield* consume(tokens.values);
    }
  } catch (error) {
    if (error instanceof CalendarFileError) throw error;
    throw new CalendarFileError('unreadable', error instanceof Error ? error.message : String(error));
  }
  let rest: ReturnType<Tokenize>;
  try {
    const tail = decoder.end();
    if (tail !== '') {
      const tokens = tokenize(tail);
      if (tokens !== none) yield* consume(tokens.values);
    }
    rest = tokenize(none);
  } catch {
    if (bytes === 0) throw new CalendarFileError('invalidJson', 'the file is empty');
    // Whatever the tokenizer expected next, the news is that the document stops.
    throw new CalendarFileError('invalidJson', `it ends after ${bytes} bytes, in the middle of the document: was it cut short?`);
  }
  if (rest !== none) yield* consume(rest.values);
  // `consume` moves the state; TypeScript cannot see that through the generator.
  if ((state as State) !== 'done') throw new CalendarFileError('invalidJson', `it ends after ${bytes} bytes, in the middle of the document: was it cut short?`);
}
