import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import type { CodegenPlugin, Types } from '@graphql-codegen/plugin-helpers';
import { printExecutableGraphQLDocument } from '@graphql-tools/documents';
import { Kind, visit, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';

/** One trusted operation: the exact text a client sends, and the SHA-256 of that text. */
export interface PersistedDocument {
  /** The operation's name, e.g. `EventsPage`. */
  name: string;
  operation: OperationDefinitionNode['operation'];
  /** The operation with every fragment it uses, in codegen's normalised print (one line, sorted). */
  text: string;
  /** Lower-case hex SHA-256 of `text`. */
  hash: string;
  /** Where the operation is written, relative to the working directory. */
  source: string;
}

export interface PersistedDocumentsConfig {
  /** `documents`: a TypeScript module of typed strings; `manifest`: the `sha256:<hex>` → text JSON. */
  output: 'documents' | 'manifest';
}

/**
 * Every named operation of the documents with the fragments it spreads (transitively), printed the
 * way GraphQL Code Generator's client preset normalises persisted documents. The hash is taken
 * here, over that very text, so the typed module, the server's manifest and a client hashing what
 * it sends agree by construction: one hash per document.
 */
export function persistedDocuments(files: readonly Types.DocumentFile[]): PersistedDocument[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: Array<{ node: OperationDefinitionNode; source: string }> = [];
  for (const file of files) {
    for (const definition of file.document?.definitions ?? []) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
      if (definition.kind === Kind.OPERATION_DEFINITION) operations.push({ node: definition, source: relative(process.cwd(), file.location ?? '') });
    }
  }

  const spreads = (node: OperationDefinitionNode | FragmentDefinitionNode): string[] => {
    const names: string[] = [];
    visit(node, { FragmentSpread: (spread) => void names.push(spread.name.value) });
    return names;
  };

  return operations.map(({ node, source }) => {
    const name = node.name?.value;
    // The typed constant is named after the operation (`EventsPageDocument`), as typescript-operations names its types.
    if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`${source}: name every operation in PascalCase (got ${name ?? 'an anonymous one'})`);
    const used = new Map<string, FragmentDefinitionNode>();
    const pending = spreads(node);
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (used.has(next)) continue;
      const fragment = fragments.get(next);
      if (!fragment) throw new Error(`${source}: operation ${name} spreads unknown fragment ${next}`);
      used.set(next, fragment);
      pending.push(...spreads(fragment));
    }
    const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [node, ...used.values()] };
    const text = printExecutableGraphQLDocument(document);
    return { name, operation: node.operation, text, hash: createHash('sha256').update(text, 'utf8').digest('hex'), source };
  });
}

const SUFFIX = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;

function documentsModule(documents: readonly PersistedDocument[]): string {
  const lines = [
    '/**',
    ' * A GraphQL operation as the exact text that is sent, carrying its result and variables types. At run',
    ' * time it is a plain string: any client can send it, and a bundler drops the ones a page does not use.',
    ' */',
    'export type TypedDocument<TResult, TVariables> = string & { readonly __apiType?: (variables: TVariables) => TResult };',
  ];
  for (const document of documents) {
    const type = `${document.name}${SUFFIX[document.operation]}`;
    lines.push(
      '',
      `/** \`${document.operation} ${document.name}\` (${document.source}); persisted as \`sha256:${document.hash}\`. */`,
      `export const ${document.name}Document = ${JSON.stringify(document.text)} as TypedDocument<${type}, ${type}Variables>;`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A GraphQL Code Generator plugin over `persistedDocuments`: with `output: 'documents'` it writes the
 * typed document strings (typescript-operations adds their types to the same file), with
 * `output: 'manifest'` the persisted-documents manifest the server trusts.
 */
export const persistedDocumentsPlugin: CodegenPlugin<PersistedDocumentsConfig> = {
  plugin: (_schema, files, config) => {
    const documents = persistedDocuments(files);
    if (config.output === 'manifest') {
      return `${JSON.stringify(Object.fromEntries(documents.map((document) => [`sha256:${document.hash}`, document.text])), null, 2)}\n`;
    }
    return { prepend: ['// Generated by `npm run codegen` from queries/ and schema.graphql: do not edit.'], content: documentsModule(documents) };
  },
};
