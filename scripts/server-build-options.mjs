// How src/ is compiled to dist/ (scripts/build.mjs, and `npm run dev` for each file saved): one module per
// source file, ES modules for the oldest Node line we support, source maps that name src/.
import { join } from 'node:path';

/** Node 22 is the oldest line we support (package.json's engines). */
export const NODE_TARGET = 'node22';

/** Whether `path` (relative to the root, `/`-separated) is a module of the service: the browser code of src/client/ is not. */
export function isServerSource(path) {
  return path.startsWith('src/') && path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.startsWith('src/client/');
}

/** esbuild's options for compiling `entryPoints` (files of `<root>/src`) into `<root>/dist`, one to one. */
export function serverBuildOptions(root, entryPoints) {
  return {
    entryPoints,
    outdir: join(root, 'dist'),
    outbase: join(root, 'src'),
    platform: 'node',
    format: 'esm',
    target: NODE_TARGET,
    sourcemap: 'linked',
    // Stack traces name the original files: the maps point at src/, shipped beside dist/.
    sourcesContent: false,
    logLevel: 'warning',
  };
}
