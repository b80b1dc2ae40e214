import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers/index.js';

/** The SDL file, the single source of both the executable schema and the published schema file. */
export const schemaFilePath = fileURLToPath(new URL('../../schema.graphql', import.meta.url));

export function loadSchemaSource(): string {
  return readFileSync(schemaFilePath, 'utf8');
}

export function buildExecutableSchema(source: string = loadSchemaSource()): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: source, resolvers, resolverValidationOptions: { requireResolversToMatchSchema: 'error' } });
}

/** A schema as the service serves it: the SDL (published at /schema.graphql) and the executable schema built from it. */
export interface ServedSchema {
  readonly source: string;
  readonly schema: GraphQLSchema;
}

/** The SDL with the resolvers of this module's generation (`npm run dev` builds one per reload). */
export function buildServedSchema(source: string = loadSchemaSource()): ServedSchema {
  return { source, schema: buildExecutableSchema(source) };
}
