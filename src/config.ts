import { z } from 'zod';
import { malformedPostgresUrl, readReplicaUrls } from './db/postgres-url.js';
import { trustedProxies } from './identity/client-address.js';
import { MAX_DEMO_EVENTS } from './demo/demo-size.js';

/**
 * Executions at once per process by default: two, so that the core runs one while the other waits for
 * its database read (an execution's page records, its dates). With one, the core sat idle through every
 * read: S2 of bench/peers.ts on the same machine and run, 1 → 2 slots, 343 → 240 µs of CPU per request
 * and 1.8x the answers per second, while a polite caller against a greedy one still waits at most the
 * executions running (docs/transport.md, "Fair shares").
 */
export const DEFAULT_EXECUTION_SLOTS = 2;

const PORT_RULE = 'must be a port number from 1 to 65535, or 0 for any free port';
/** A TCP port: digits only (no sign, fraction or hex), 0 to 65535. */
const port = z
  .string()
  .regex(/^\d{1,5}$/, PORT_RULE)
  .transform(Number)
  .refine((value) => value <= 65535, PORT_RULE);
const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
// OTLP over HTTP with protobuf bodies, the specification's default; gRPC and JSON would each need an exporter of their own.
const otlpProtocol = z.literal('http/protobuf', { error: 'only http/protobuf is supported' });
// Words GRANT ... TO reads as something else than a role name (PostgreSQL refuses them as role names).
const RESERVED_ROLE_NAMES = new Set(['public', 'none', 'current_role', 'current_user', 'session_user']);

/** Every setting, read from the environment once at start. Documented in README.md (Configuration). */
const ConfigSchema = z.object({
  PORT: port.default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * A listener of its own for GET /metrics (and /health), off the API's port, which then answers
   * /metrics 404. Unset: /metrics is served on PORT, as before it existed.
   */
  METRICS_PORT: port.optional(),
  /** The interface of the METRICS_PORT listener; unset: HOST. */
  METRICS_HOST: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for the embedded database)')
    .optional(),
  /** Connections in the request pool, per process. */
  DATABASE_POOL_SIZE: integer(1, 1000).default(10),
  /** Longest wait for a pool connection; past it the request gets 503 SERVICE_UNAVAILABLE. */
  DATABASE_ACQUIRE_TIMEOUT_MS: integer(100, 60_000).default(2000),
  /** PostgreSQL statement_timeout of API reads (0: none). Imports are not bound by it. */
  DATABASE_STATEMENT_TIMEOUT_MS: integer(0, 3_600_000).default(5000),
  /** How long start-up waits for a database that does not answer yet (0: try once). */
  DATABASE_WAIT_SECONDS: integer(0, 86_400).default(60),
  /** Read replicas (postgres:// URLs, comma-separated): API reads go there, writes to DATABASE_URL. */
  DATABASE_READ_URL: z
    .string()
    .transform((value, context) => readReplicaUrls(value, context))
    .optional(),
  /** A direct connection for LISTEN (behind PgBouncer in transaction mode); unset: DATABASE_URL when writable. */
  DATABASE_LISTEN_URL: z
    .string()
    .superRefine((url, context) => {
      const problem = malformedPostgresUrl(url);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  /** `auto`: migrate at start (needs a writable database); `off`: never, and refuse a schema older than the code. */
  MIGRATE: z.enum(['auto', 'off'], { error: 'must be auto or off' }).default('auto'),
  /** Longest a GraphQL request may run; past it the answer is 503 (a database that stopped answering). */
  REQUEST_TIMEOUT_MS: integer(100, 600_000).default(6000),
  /** GraphQL executions running and waiting per process; more are answered 503 at once (load shedding). */
  MAX_IN_FLIGHT_REQUESTS: integer(1, 100_000).default(200),
  /**
   * Of those, one caller's (a key, or a client address); more are answered 429. Unset: no limit of
   * its own (the spec promises no rate limit; callers still take turns).
   */
  MAX_IN_FLIGHT_PER_CALLER: integer(1, 100_000).optional(),
  /**
   * Budgets (docs/transport.md, Budgets): points per minute of each caller with a valid key, and of
   * each caller without one (by address); executions are charged their operation's cost, cache hits
   * nothing. Unset: no budget for that class (the spec promises no rate limit; one introduced is
   * announced first).
   */
  RATE_LIMIT_KEY: integer(1, 100_000_000).optional(),
  RATE_LIMIT_ANONYMOUS: integer(1, 100_000_000).optional(),
  /** Executions at once per process; the rest wait in one queue per caller, served in turn (two: one runs while another reads). */
  EXECUTION_SLOTS: integer(1, 1000).default(DEFAULT_EXECUTION_SLOTS),
  /** Longest time a client may take to send a whole request (headers: at most 10 s of it). */
  HTTP_REQUEST_TIMEOUT_MS: integer(1000, 600_000).default(30_000),
  /** How long an idle kept-alive connection stays open. Behind a load balancer: longer than its idle timeout. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer(1000, 600_000).default(5000),
  /**
   * On SIGTERM, how long the port keeps answering with /ready at 503 before it stops accepting: longer
   * than a balancer probing /ready takes to stop sending here (docs/operating.md, "Rolling a new version").
   */
  SHUTDOWN_DELAY_MS: integer(0, 60_000).default(0),
  /** Open client connections per process; more are refused. */
  HTTP_MAX_CONNECTIONS: integer(1, 1_000_000).default(10_000),
  /** Worker processes behind the one port (node:cluster); `auto`: one per core. 1: a single process, no cluster. */
  WORKERS: z
    .string()
    .refine((value) => value === 'auto' || (/^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= 256), {
      error: 'must be auto (one worker per core) or a whole number of worker processes from 1 to 256',
    })
    .transform((value): 'auto' | number => (value === 'auto' ? 'auto' : Number(value)))
    .default(1),
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier').default('public'),
  /**
   * The role `calendar serve` connects as on PostgreSQL, granted what serving needs (read the calendar,
   * write its counters) by every migration run (docs/operating.md, "Database roles"). Unset: no grants.
   */
  DATABASE_SERVING_ROLE: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a PostgreSQL role name: a lower-case SQL identifier (a-z, 0-9 and _, at most 63 characters), e.g. calendar_serve')
    .refine((role) => !role.startsWith('pg_'), 'must not start with pg_ (PostgreSQL reserves those names for its own roles)')
    .refine((role) => !RESERVED_ROLE_NAMES.has(role), `must name a role, not one of the reserved words ${[...RESERVED_ROLE_NAMES].join(', ')}`)
    .optional(),
  CALENDAR_DATA_DIR: z.string().min(1).default('./.data'),
  PUBLIC_SITE_URL: z.url({ protocol: /^https?$/ }).default('https://kalender.example.no/arrangement'),
  /** This service as readers' browsers reach it (demo picture URLs); unset: the listening address. */
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://api.example.no' })
    .refine((url) => !/[?#]/.test(url), 'must have no query or fragment (a base URL such as https://api.example.no or https://example.no/calendar)')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  /** The response cache (in this process, and in Redis when REDIS_URL is set); off only to measure or debug the pipeline. */
  RESPONSE_CACHE: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  /**
   * Apply a new data version as layers over the last full build (only what changed is read: issue 42,
   * docs/performance.md "Fresh at any size"); off: every version is a full build.
   */
  READ_MODEL_LAYERED: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  /**
   * Layered: events changed since the last full build past which a compaction (a full build in the
   * background, versions still layered meanwhile) starts. Default: read-model.ts DELTA_MOST_EVENTS
   * (measured: docs/performance.md).
   */
  READ_MODEL_DELTA_MOST_EVENTS: integer(1, 10_000_000).optional(),
  /**
   * A full build in segments of at most this many events (the events split by a hash of their id, each
   * segment a snapshot of its own, built one after another: segments/event-segments.ts), compacted one
   * segment at a time. Unset: one snapshot (docs/performance.md "A base in segments": what it costs).
   */
  READ_MODEL_SEGMENT_EVENTS: integer(1, 10_000_000).optional(),
  /** The header that carries CDN tags on cacheable answers (docs/cdn.md); none: no tags sent. */
  CDN_TAG_HEADER: z
    .enum(['Surrogate-Key', 'Cache-Tag', 'Edge-Cache-Tag', 'none'], { error: 'must be Surrogate-Key, Cache-Tag, Edge-Cache-Tag or none' })
    .default('Surrogate-Key'),
  /**
   * Which proxies may say who the client is (X-Forwarded-For, Forwarded): `none`, a hop count, or
   * comma-separated addresses and ranges (`10.0.0.0/8,loopback`). Callers without a key are told
   * apart by that address (fair shares, budgets).
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context) => {
      try {
        return trustedProxies(value);
      } catch (error) {
        context.addIssue({
          code: 'custom',
          message: `must be none, a hop count or comma-separated addresses and ranges (${error instanceof Error ? error.message : String(error)})`,
        });
        return z.NEVER;
      }
    }),
  /** Varnish edges (deploy/varnish/default.vcl) to purge after each import, comma-separated http(s) URLs. */
  CDN_PURGE_URLS: z
    .string()
    .transform((value, context) => purgeUrls(value, context))
    .optional(),
  /** Fastly: purge by surrogate key after each import (both or neither). */
  FASTLY_SERVICE_ID: z.string().regex(/^[A-Za-z0-9]+$/, 'must be a Fastly service id (letters and digits)').optional(),
  FASTLY_API_TOKEN: z.string().min(1).optional(),
  /** The Fastly API (a stand-in in tests). */
  FASTLY_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.fastly.com'),
  /** Cloudflare: purge by cache tag after each import (both or neither). */
  CLOUDFLARE_ZONE_ID: z.string().regex(/^[A-Za-z0-9]+$/, 'must be a Cloudflare zone id (letters and digits)').optional(),
  CLOUDFLARE_API_TOKEN: z.string().min(1).optional(),
  /** The Cloudflare API (a stand-in in tests). */
  CLOUDFLARE_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.cloudflare.com/client/v4'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Size of the demo calendar seeded into an empty database. Unset: the embedded database (no
   * DATABASE_URL) gets DEFAULT_DEMO_EVENTS (src/demo/demo-size.ts), a PostgreSQL none: nothing invented reaches a real one.
   */
  DEMO_EVENTS: z.coerce.number().int().min(0).max(MAX_DEMO_EVENTS).optional(),
  /** Testing aid: a fixed "now" (ISO 8601) instead of the wall clock. */
  CALENDAR_NOW: z.iso.datetime({ offset: true }).optional(),

  // OpenTelemetry tracing: the standard variables, those we act on (docs/operating.md). The OTLP
  // exporter reads the rest itself (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _COMPRESSION, ...).
  /** "true" turns every OTEL_* setting off. */
  OTEL_SDK_DISABLED: z
    .string()
    .regex(/^(true|false)$/i, 'must be true or false')
    .transform((value) => value.toLowerCase() === 'true')
    .optional(),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'none'], { error: 'must be otlp or none (the only trace exporters this service ships)' }).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. http://collector:4318' }).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. http://collector:4318/v1/traces' }).optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol.optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol.optional(),
  OTEL_TRACES_SAMPLER: z
    .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'])
    .optional(),
  /** The ratio of the traceidratio samplers, 0 to 1. */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
}).superRefine((config, context) => {
  // Replicas serve reads only: writes (usage counts, start-up migration) need the primary.
  if (config.DATABASE_READ_URL && !config.DATABASE_URL) {
    context.addIssue({ code: 'custom', path: ['DATABASE_READ_URL'], message: 'needs DATABASE_URL (the primary) as well' });
  }
  for (const [id, token] of [
    ['FASTLY_SERVICE_ID', 'FASTLY_API_TOKEN'],
    ['CLOUDFLARE_ZONE_ID', 'CLOUDFLARE_API_TOKEN'],
  ] as const) {
    if ((config[id] === undefined) !== (config[token] === undefined)) {
      const missing = config[id] === undefined ? id : token;
      context.addIssue({ code: 'custom', path: [missing], message: `is needed with ${missing === id ? token : id} (both or neither)` });
    }
  }
  if (config.DATABASE_LISTEN_URL && !config.DATABASE_URL) {
    context.addIssue({ code: 'custom', path: ['DATABASE_LISTEN_URL'], message: 'needs DATABASE_URL as well (the embedded database has no LISTEN)' });
  }
  // Silently ignored otherwise: an operator who names an interface for the metrics expects them there.
  if (config.METRICS_HOST !== undefined && config.METRICS_PORT === undefined) {
    context.addIssue({ code: 'custom', path: ['METRICS_HOST'], message: 'needs METRICS_PORT as well (without it /metrics is served on PORT)' });
  }
  // Both 0 is fine: each listener gets a free port of its own.
  if (config.METRICS_PORT !== undefined && config.METRICS_PORT !== 0 && config.METRICS_PORT === config.PORT) {
    context.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: `must differ from PORT (${config.PORT}): /metrics moves to a listener of its own` });
  }
});

/** CDN_PURGE_URLS: comma-separated http(s) URLs, each a Varnish edge. */
function purgeUrls(value: string, context: z.RefinementCtx): string[] {
  const urls = value.split(',').map((url) => url.trim()).filter(Boolean);
  for (const url of urls) {
    if (!z.url({ protocol: /^https?$/ }).safeParse(url).success) {
      context.addIssue({ code: 'custom', message: `${JSON.stringify(url)} is not an http(s) URL (comma-separated edge URLs, e.g. http://edge-1:6081/)` });
    }
  }
  return urls;
}

export type Config = z.infer<typeof ConfigSchema>;

/** The name of every setting above: what a deploy recipe may set (test/deploy checks they set nothing else). */
export const SETTING_NAMES: readonly string[] = Object.keys(ConfigSchema.shape);

export class ConfigError extends Error {}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Where the METRICS_PORT listener listens, or undefined when /metrics is served on the API's port. */
export function metricsListenAddress(config: Pick<Config, 'HOST' | 'METRICS_HOST' | 'METRICS_PORT'>): { host: string; port: number } | undefined {
  return config.METRICS_PORT === undefined ? undefined : { host: config.METRICS_HOST ?? config.HOST, port: config.METRICS_PORT };
}

/** The clock of the service: the wall clock, or the fixed CALENDAR_NOW. */
export function clockFrom(config: Pick<Config, 'CALENDAR_NOW'>): () => Date {
  const fixed = config.CALENDAR_NOW;
  return fixed ? () => new Date(fixed) : () => new Date();
}
