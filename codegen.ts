import type { CodegenConfig } from '@graphql-codegen/cli';
import type { CodegenPlugin } from '@graphql-codegen/plugin-helpers';
import { persistedDocumentsPlugin } from './codegen/persisted-documents.ts';

/**
 * One config, three outputs: resolver typings from the SDL (the source of truth); the typed
 * documents of the trusted operations in `queries/` for the client package; and the manifest of
 * those same documents that the server trusts. The last two come from one plugin, which hashes
 * the exact text the client sends: one hash per document everywhere.
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['queries/**/*.graphql'],
  emitLegacyCommonJSImports: false,
  // Our own plugin is loaded from here; every other one the usual way (a module codegen takes for a plugin, as its own loader does).
  pluginLoader: async (name: string) => (name === '@graphql-codegen/persisted-documents' ? persistedDocumentsPlugin : (import(name) as Promise<CodegenPlugin>)),
  generates: {
    // The SDL's own types (objects, inputs, enums), importing nothing of ours: what the domain, the
    // read model and the feeds may use without reaching up to the resolvers' context and mappers.
    'generated/schema-types.ts': {
      plugins: ['typescript'],
      config: {
        useTypeImports: true,
        strictScalars: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
      },
    },
    // The resolver types, over the types above; they import our context and mappers (src/schema).
    'generated/resolvers-types.ts': {
      plugins: [{ add: { content: "import type * as Types from './schema-types.js';" } }, 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        strictScalars: true,
        enumsAsTypes: true,
        namespacedImportName: 'Types',
        contextType: '../src/schema/context.js#GraphQLContext',
        mappers: {
          Event: '../src/schema/models.js#EventNode',
          EventConnection: '../src/schema/models.js#EventConnectionModel',
          Repetition: '../src/schema/models.js#RepetitionModel',
          Price: '../src/schema/models.js#PriceModel',
          Image: '../src/schema/models.js#ImageModel',
          Venue: '../src/schema/models.js#VenueModel',
          Organizer: '../src/schema/models.js#OrganizerModel',
          Category: '../src/schema/models.js#CategoryModel',
          VenueFacet: '../src/schema/models.js#VenueFacetModel',
          OrganizerFacet: '../src/schema/models.js#OrganizerFacetModel',
          CategoryFacet: '../src/schema/models.js#CategoryFacetModel',
        },
        mapperTypeSuffix: 'Model',
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
      },
    },
    // Inside the client package, so that its build compiles only its own folder. Plain typed strings,
    // not the client preset's TypedDocumentString: no import of @graphql-typed-document-node (and
    // graphql) in the published types, nothing a bundler must keep, and the text sent is the text hashed.
    'packages/client/src/generated/documents.ts': {
      plugins: [
        // First, so that its "generated" line heads the file; the types follow the documents.
        { 'persisted-documents': { output: 'documents' } },
        'typescript-operations',
      ],
      config: {
        useTypeImports: true,
        strictScalars: true,
        enumsAsTypes: true,
      },
    },
    // The server's trusted documents, `sha256:<hex>` → the text above.
    'generated/persisted-documents.json': {
      plugins: [{ 'persisted-documents': { output: 'manifest' } }],
    },
  },
};

export default config;
