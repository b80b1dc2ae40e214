import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codegen } from '@graphql-codegen/core';
import type { Types } from '@graphql-codegen/plugin-helpers';
import * as addPlugin from '@graphql-codegen/add';
import * as typescriptPlugin from '@graphql-codegen/typescript';
import * as resolversPlugin from '@graphql-codegen/typescript-resolvers';
import { parse } from 'graphql';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import codegenConfig from '../../codegen.ts';

/*
 * `npm run typecheck` names a field nothing answers (src/schema/field-coverage.ts). Run here the way the
 * project runs it: the project's own codegen settings generate the resolver types of a small schema, and the
 * TypeScript compiler, with the project's tsconfig, checks the real field-coverage.ts against a resolver
 * map laid out as src/schema/resolvers is. The files live in memory, under a folder of the repository
 * that does not exist on disk (so `graphql` and the lib files resolve as in the project).
 */

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const fixtureRoot = path.join(repoRoot, '.field-coverage-fixture');

const BASE_SDL = `
type Query {
  venue: Venue
  venues: [VenueFacet!]!
}
type Venue {
  id: String!
  name: String!
  postalCode: String
}
type VenueFacet {
  id: String!
  name: String!
  postalCode: String
  hits: Int!
}
`;

const MODELS = `
export interface VenueModel { readonly id: string; readonly name: string; readonly postal_code: string | null }
export type VenueFacetModel = VenueModel & { readonly hits: number };
`;

const CONTEXT = `export interface GraphQLContext { readonly requestId: string }\n`;

/** A resolver map as src/schema/resolvers lays them out: a set two types share, each type's own, the check. */
function resolverMap({ shared = '', venue = '' }: { shared?: string; venue?: string } = {}): string {
  return `
import type { Resolvers, VenueFacetResolvers, VenueResolvers } from '../../generated/resolvers-types.js';
import type { FieldProblems, NoFieldProblems, SharedResolvers } from './field-coverage.js';

const venueFields = {
  postalCode: (v) => v.postal_code,${shared}
} satisfies SharedResolvers<VenueResolvers, VenueFacetResolvers>;

const Venue = { ...venueFields${venue} };

export const resolvers = {
  Query: { venue: () => null, venues: () => [] },
  Venue,
  VenueFacet: { ...venueFields, hits: (v) => v.hits },
} satisfies Resolvers;

type _EveryFieldAnswered = NoFieldProblems<FieldProblems<typeof resolvers>>;
`;
}

type OutputConfig = Types.ConfiguredOutput & { config: Types.PluginConfig; plugins: Types.OutputConfig[] };

function projectOutput(file: string): OutputConfig {
  return codegenConfig.generates[file] as OutputConfig;
}

/** What `npm run codegen` writes for `sdl`: the SDL's types and the resolver types, with the project's settings. */
async function generate(sdl: string): Promise<Record<string, string>> {
  const schema = parse(sdl);
  const pluginMap = { add: addPlugin, typescript: typescriptPlugin, 'typescript-resolvers': resolversPlugin };
  const run = async (file: string, overrides: Types.PluginConfig = {}) => {
    const output = projectOutput(file);
    const plugins = output.plugins.map((plugin): Types.ConfiguredPlugin => (typeof plugin === 'string' ? { [plugin]: {} } : plugin));
    return codegen({ filename: file, schema, documents: [], plugins, pluginMap, config: { ...output.config, ...overrides } });
  };
  return {
    'generated/schema-types.ts': await run('generated/schema-types.ts'),
    'generated/resolvers-types.ts': await run('generated/resolvers-types.ts', {
      mappers: { Venue: '../src/schema/models.js#VenueModel', VenueFacet: '../src/schema/models.js#VenueFacetModel' },
    }),
  };
}

const compilerOptions = (() => {
  const read = ts.readConfigFile(path.join(repoRoot, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, repoRoot).options;
})();

/** The lib and node_modules declarations, parsed once for every program of this file. */
const parsedOnDisk = new Map<string, ts.SourceFile | undefined>();

/** The compiler's errors for the fixture project, one message per error (chains joined). */
async function typecheckErrors(sdl: string, resolvers: string): Promise<string[]> {
  const files = new Map<string, string>(
    Object.entries({
      ...(await generate(sdl)),
      'src/schema/models.ts': MODELS,
      'src/schema/context.ts': CONTEXT,
      'src/schema/field-coverage.ts': readFileSync(path.join(repoRoot, 'src/schema/field-coverage.ts'), 'utf8'),
      'src/schema/resolvers.ts': resolvers,
    }).map(([name, text]) => [path.join(fixtureRoot, name), text]),
  );
  const host = ts.createCompilerHost(compilerOptions);
  const onDisk = ts.createCompilerHost(compilerOptions);
  host.fileExists = (file) => files.has(file) || onDisk.fileExists(file);
  host.readFile = (file) => files.get(file) ?? onDisk.readFile(file);
  host.directoryExists = (dir) => [...files.keys()].some((file) => file.startsWith(dir + path.sep)) || (onDisk.directoryExists?.(dir) ?? false);
  host.getSourceFile = (file, language, ...rest) => {
    const text = files.get(file);
    if (text !== undefined) return ts.createSourceFile(file, text, language);
    if (!parsedOnDisk.has(file)) parsedOnDisk.set(file, onDisk.getSourceFile(file, language, ...rest));
    return parsedOnDisk.get(file);
  };
  const program = ts.createProgram([path.join(fixtureRoot, 'src/schema/resolvers.ts')], { ...compilerOptions, noEmit: true }, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('npm run typecheck: every field of every object type is answered', () => {
  it('passes when each field has a resolver or a model property of its type', async () => {
    expect(await typecheckErrors(BASE_SDL, resolverMap())).toEqual([]);
  });

  it('names a field with neither a resolver nor a model property', async () => {
    const sdl = BASE_SDL.replace('postalCode: String\n}\ntype VenueFacet', 'postalCode: String\n  devMissing: String!\n}\ntype VenueFacet');
    expect(sdl).not.toBe(BASE_SDL);
    const errors = await typecheckErrors(sdl, resolverMap());
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"Venue.devMissing: no resolver, and the model of Venue has no property devMissing"');
  });

  it('names a field whose model property is not of the type the schema gives', async () => {
    const sdl = BASE_SDL.replace('type Venue {\n  id: String!\n  name: String!', 'type Venue {\n  id: String!\n  name: Int!');
    expect(sdl).not.toBe(BASE_SDL);
    const errors = await typecheckErrors(sdl, resolverMap());
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("Venue.name: no resolver, and the model's property name is not of the type the schema gives");
  });

  it('names a resolver for a field the schema does not have', async () => {
    const errors = await typecheckErrors(BASE_SDL, resolverMap({ venue: ', postCode: (v: { postal_code: string | null }) => v.postal_code' }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"Venue.postCode: a resolver for a field the schema does not have"');
  });

  it('keeps a field one type has out of the resolvers it shares with another (the facet cannot inherit it)', async () => {
    const sdl = BASE_SDL.replace('postalCode: String\n}\ntype VenueFacet', 'postalCode: String\n  devProbe: String\n}\ntype VenueFacet');
    expect(sdl).not.toBe(BASE_SDL);
    // Its resolver in the shared set: refused there, and named as the facet's resolver of a field it has not.
    const shared = await typecheckErrors(sdl, resolverMap({ shared: "\n  devProbe: () => 'probe'," }));
    expect(shared).toHaveLength(2);
    expect(shared).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/'devProbe' does not exist in type/),
        expect.stringContaining('"VenueFacet.devProbe: a resolver for a field the schema does not have"'),
      ]),
    );
    // In the type's own resolvers: compiles, and the facet is untouched.
    expect(await typecheckErrors(sdl, resolverMap({ venue: ", devProbe: () => 'probe'" }))).toEqual([]);
  });
});
