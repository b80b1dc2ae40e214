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
