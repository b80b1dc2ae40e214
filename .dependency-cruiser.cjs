// The shape of the house (conventions: "The shape of the house"), checked by `npm run lint:deps`:
// data flows one way,
//   HTTP → plugins/execution → schema/resolvers → read model/domain → db,
// nothing lower imports anything higher, and no two modules import each other, type-only imports
// included. There is no list of known violations: a violation fails, and is fixed by moving what is
// shared down a layer.

/** Folders of src/ as layers. */
const SRC = (...names) => `^src/(${names.join('|')})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Two modules that import each other (type-only imports count too): neither can be understood, tested or moved alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nothing imports and that imports nothing is dead code (or a file loaded by path: name it here).',
      from: { orphan: true, pathNot: ['(^|/)\\.[^/]+\\.(c|m)?js$', '\\.d\\.ts$', '(^|/)tsconfig\\.json$'] },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing fails at run time.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'not-to-undeclared-package',
      severity: 'error',
      comment: 'A package that package.json does not list works only while something else happens to install it.',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-dev-dependency',
      severity: 'error',
      comment:
        'Production code runs without devDependencies. Type-only imports vanish from the JavaScript; the one other ' +
        'exception is a lazy import() whose failure is handled (src/http/widget-route.ts bundles the widget with esbuild ' +
        'on first request; only /widget fails without it).',
      from: { path: '^(src|bin|packages/client/src)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'not-to-tests',
      severity: 'error',
      comment: 'Code that ships does not import tests or benchmarks.',
      from: { path: '^(src|bin|packages/client/src)/' },
      to: { path: '^(test|bench)/' },
    },

    // The layers, lowest first.
    {
      name: 'db-is-the-bottom',
      severity: 'error',
      comment: 'src/db (Kysely, repositories, migrations, drivers) knows nothing of what is built on it.',
      from: { path: '^src/db/' },
      to: { path: [SRC('read-model', 'schema', 'plugins', 'http', 'import', 'cli', 'feeds', 'export', 'cluster', 'identity', 'redis', 'client', 'cdn'), '^src/app\\.ts$', '^generated/'] },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'src/domain holds pure rules over values, unit-tested without a database: it imports no module with I/O. ' +
        'The SDL\'s own types (generated/schema-types.ts) are fine; the resolver types import the schema\'s context.',
      from: { path: '^src/domain/' },
      to: {
        path: [
          SRC('db', 'read-model', 'schema', 'plugins', 'http', 'import', 'cli', 'feeds', 'export', 'cluster', 'identity', 'redis', 'telemetry', 'client', 'cdn', 'fields'),
          '^src/(app|config|logger)\\.ts$',
          '^generated/(?!schema-types\\.ts$)',
        ],
      },
    },
    {
      name: 'domain-does-no-io',
      severity: 'error',
      comment: 'No file system, network, process or database modules in src/domain (node:crypto hashing and luxon are pure).',
      from: { path: '^src/domain/' },
      to: {
        path: [
          '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dgram|dns|child_process|cluster|worker_threads|readline|process)$',
          '^node_modules/(pg|pg-pool|kysely|ioredis|@electric-sql/pglite|pino|prom-client|@opentelemetry/[^/]+)/',
        ],
      },
    },
    {
      name: 'fields-are-declarations',
      severity: 'error',
      comment:
        'src/fields declares the import format\'s records field by field (validation, column, API name); every layer ' +
        'from src/db up derives from it, so it imports nothing of the project but src/domain.',
      from: { path: '^src/fields/' },
      to: { path: ['^src/(?!fields/|domain/)', '^generated/'] },
    },
    {
      name: 'read-model-below-schema',
      severity: 'error',
      comment:
        'src/read-model (snapshots, walks, record reads) answers the schema and the feeds; it imports nothing of HTTP, ' +
        'the Envelop plugins, the schema or the resolver types (generated/resolvers-types.ts imports the schema\'s context ' +
        'and mappers), the importer or the CLI.',
      from: { path: '^src/read-model/' },
      to: {
        path: [
          SRC('http', 'plugins', 'schema', 'cli', 'import', 'feeds', 'export', 'cluster', 'identity', 'client', 'cdn'),
          '^src/app\\.ts$',
          '^generated/(?!schema-types\\.ts$)',
        ],
      },
    },
    {
      name: 'schema-below-execution',
      severity: 'error',
      comment: 'src/schema (SDL + thin resolvers) is executed by the plugins\' pipeline; it imports nothing of it, nor of HTTP or the CLI.',
      from: { path: '^src/schema/' },
      to: { path: [SRC('plugins', 'http', 'cli', 'cluster', 'client'), '^src/app\\.ts$'] },
    },
    {
      name: 'plugins-below-http',
      severity: 'error',
      comment: 'The Envelop plugins are execution: they know nothing of the node:http routes above them, nor of the CLI.',
      from: { path: '^src/plugins/' },
      to: { path: [SRC('http', 'cli', 'cluster', 'client'), '^src/app\\.ts$'] },
    },
    {
      name: 'http-imports-plugin-types-only',
      severity: 'error',
      comment:
        'HTTP is separate from execution: src/http parses, negotiates and writes, and reaches the pipeline through ' +
        'getEnveloped (a type). What a route needs at run time belongs in a module of its own below both.',
      from: { path: '^src/http/' },
      to: { path: '^src/plugins/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'telemetry-below-the-data',
      severity: 'error',
      comment: 'Metrics and tracing are used by every layer down to src/db: they import no data layer, nor the CLI or the wiring.',
      from: { path: '^src/telemetry/' },
      to: { path: [SRC('db', 'read-model', 'schema', 'import', 'feeds', 'export', 'cli', 'identity', 'client', 'cdn'), '^src/app\\.ts$'] },
    },
    {
      name: 'nothing-below-http-imports-it',
      severity: 'error',
      comment:
        'src/http (the routes) and src/plugins (the execution pipeline) are the top of the request path: only the wiring ' +
        '(src/app.ts), the CLI and the cluster primary import them, and src/http imports src/plugins (types only, see ' +
        'http-imports-plugin-types-only). Settings, telemetry, the data layers and everything else below take what they ' +
        'share with HTTP from a module below both, never from HTTP or the pipeline.',
      from: { path: '^src/', pathNot: ['^src/(http|plugins|cli|cluster)/', '^src/app\\.ts$'] },
      to: { path: SRC('http', 'plugins') },
    },
    {
      name: 'cdn-beside-the-requests',
      comment:
        'src/cdn purges the CDN edges after imports, in the background: the data below it, nothing of the request ' +
        'path (HTTP, plugins, schema); only the wiring starts it.',
      severity: 'error',
      from: { path: '^src/cdn/' },
      to: { path: [SRC('http', 'plugins', 'schema', 'read-model', 'import', 'cli', 'cluster', 'identity', 'client'), '^src/app\\.ts$'] },
    },
    {
      name: 'cli-only-from-cli',
      severity: 'error',
      comment: 'The `calendar` command is the top: only its own files and bin/ import src/cli.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'app-only-from-cli',
      severity: 'error',
      comment: 'src/app.ts is wiring only: the commands that serve build it, nothing below does.',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/app\\.ts$'] },
      to: { path: '^src/app\\.ts$' },
    },
    {
      name: 'widget-is-a-client',
      severity: 'error',
      comment: 'The embeddable widget runs in browsers: it uses the client package, never the service\'s own modules.',
      from: { path: '^src/client/' },
      to: { path: ['^src/(?!client/)', '^generated/'] },
    },
    {
      name: 'client-package-stands-alone',
      severity: 'error',
      comment: 'packages/client is published and built on its own: it imports nothing outside its folder but its packages.',
      from: { path: '^packages/client/src/' },
      to: { path: '^(?!packages/client/src/|node_modules/)', dependencyTypesNot: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^packages/client/dist/' },
    // Type-only imports count: a cycle or an upward import of types is still one.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.d.ts', '.json'],
    },
  },
};
