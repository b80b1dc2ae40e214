import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build, type Message } from 'esbuild';
// The options `npm run build` compiles with, so that a reloaded module is what a build would have made.
import { serverBuildOptions } from '../server-build-options.mjs';

export interface Compiled {
  /** The dist/ modules written or removed (absolute paths). */
  modules: string[];
  /** `file:line:column: message` for each error; nothing was written when there is one. */
  errors: string[];
}

/** dist/'s module of a source file of src/. */
export function distModuleOf(root: string, source: string): string {
  return path.join(root, 'dist', path.relative(path.join(root, 'src'), source)).replace(/\.ts$/, '.js');
}

/**
 * Compiles the saved source files into dist/, one module each (no bundling: each compiles alone, in
 * milliseconds); a deleted source's module is removed. Syntax errors come back with their place.
 */
export async function compileSources(root: string, sources: readonly string[]): Promise<Compiled> {
  const present = sources.filter((source) => existsSync(source));
  const removed = sources.filter((source) => !existsSync(source));
  if (present.length > 0) {
    try {
      await build({ ...serverBuildOptions(root, present), logLevel: 'silent' });
    } catch (error) {
      const messages = (error as { errors?: Message[] }).errors;
      if (!messages) throw error;
      return { modules: [], errors: messages.map((m) => describe(root, m)) };
    }
  }
  for (const source of removed) rmSync(distModuleOf(root, source), { force: true });
  return { modules: sources.map((source) => distModuleOf(root, source)), errors: [] };
}

function describe(root: string, message: Message): string {
  const where = message.location;
  return where ? `${path.relative(root, path.resolve(root, where.file))}:${where.line}:${where.column + 1}: ${message.text}` : message.text;
}
