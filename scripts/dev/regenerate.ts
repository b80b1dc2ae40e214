import { generate } from '@graphql-codegen/cli';
import type { Types } from '@graphql-codegen/plugin-helpers';
// Bundled into the dev host (scripts/dev.mjs): a change to codegen.ts restarts the host.
import config from '../../codegen.ts';

/** The outputs of codegen.ts that read the documents of queries/ (all of them read the SDL). */
const DOCUMENT_OUTPUTS = ['packages/client/src/generated/documents.ts', 'generated/persisted-documents.json'];

export interface Regenerated {
  outputs: string[];
  ms: number;
}

/**
 * What `npm run codegen` does, in this process (its plugins loaded once, about a second, instead of a
 * CLI start on every save) and only for the outputs the change touches: a change to the SDL touches
 * all of them, a change to a document only the two the documents feed. A bad SDL or document throws
 * with codegen's message.
 */
export async function regenerate(root: string, touched: 'schema' | 'documents'): Promise<Regenerated> {
  const started = performance.now();
  const generates = Object.fromEntries(
    Object.entries(config.generates).filter(([output]) => touched === 'schema' || DOCUMENT_OUTPUTS.includes(output)),
  );
  const outputs = (await generate({ ...config, generates, cwd: root, silent: true, errorsOnly: true }, true)) as Types.FileOutput[];
  return { outputs: outputs.map((output) => output.filename), ms: Math.round(performance.now() - started) };
}
