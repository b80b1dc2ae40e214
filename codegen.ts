import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * One config, two outputs: resolver typings from the SDL (the source of truth), and a typed client
 * with a persisted-documents manifest from the trusted operations in `queries/`.
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['queries/**/*.graphql'],
  emitLegacyCommonJSImports: false,
  generates: {
    'generated/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        strictScalars: true,
        enumsAsTypes: true,
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
    'generated/client/': {
      preset: 'client',
      presetConfig: {
        // Hash → document manifest; SHA-256 so hashes equal the automatic-persisted-query ones.
        persistedDocuments: { hashAlgorithm: 'sha256' },
        fragmentMasking: false,
      },
      config: {
        useTypeImports: true,
        strictScalars: true,
        enumsAsTypes: true,
        // String documents: the browser client needs no GraphQL parser at run time.
        documentMode: 'string',
      },
    },
  },
};

export default config;
