/**
 * Size of the browser client, minified and gzipped, as an app pays for it: bundles
 * `packages/client/src/index.ts` for the browser with esbuild (everything it exports), then the runtime
 * alone, the helpers alone and the widget, and prints raw, minified and gzip bytes. Fails when
 * graphql-js would reach the browser bundle (the client imports only its types).
 *
 *   npx tsx bench/client-size.ts
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const TARGET_GZIP_BYTES = 5 * 1024;

interface Measured {
  name: string;
  minified: number;
  gzip: number;
}

async function measure(name: string, entry: { file: string } | { contents: string }): Promise<Measured> {
  const common = { bundle: true, minify: true, write: false, format: 'esm', platform: 'browser', target: 'es2020', metafile: true } as const;
  const result = await build(
    'file' in entry
      ? { ...common, entryPoints: [`${root}${entry.file}`] }
      : { ...common, stdin: { contents: entry.contents, resolveDir: root, loader: 'ts', sourcefile: `${name}.ts` } },
  );
  const inputs = Object.keys(result.metafile.inputs);
  const leaked = inputs.filter((input) => /node_modules\/graphql\/|node:/.test(input));
  if (leaked.length > 0) throw new Error(`${name}: the browser bundle pulls in ${leaked.join(', ')}`);
  const code = result.outputFiles[0]!.contents;
  return { name, minified: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

const rows = [
  await measure('packages/client/src/index.ts (all exports)', { file: 'packages/client/src/index.ts' }),
  await measure('runtime: createCalendarClient', { contents: `export { createCalendarClient, CalendarRequestError } from './packages/client/src/index.ts';` }),
  await measure('helpers: dates, images, prices, labels', {
    contents: `export { parseServiceTimestamp, formatOslo, eventEnd, occurrenceKey, coverImage, focusStyle, priceDisplay, categoryLabeler } from './packages/client/src/index.ts';`,
  }),
  await measure('widget (src/client/widget/main.ts, with its documents)', { file: 'src/client/widget/main.ts' }),
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} kB`;
console.log(`${'bundle'.padEnd(58)} ${'minified'.padStart(10)} ${'gzip'.padStart(10)}`);
for (const row of rows) console.log(`${row.name.padEnd(58)} ${kb(row.minified).padStart(10)} ${kb(row.gzip).padStart(10)}`);
const runtime = rows[0]!;
console.log(`\nclient (${runtime.name}): ${runtime.gzip} bytes gzipped, target < ${TARGET_GZIP_BYTES} bytes: ${runtime.gzip < TARGET_GZIP_BYTES ? 'met' : 'MISSED'}`);
if (runtime.gzip >= TARGET_GZIP_BYTES) process.exitCode = 1;
