import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, one registry per process (GET /metrics; docs/operating.md,
 * "What to watch"). Module-level like prom-client's own default registry: the places that count
 * (HTTP layer, read model, Redis circuit, usage recorder, response cache) call the functions below
 * and need no wiring.
 *
 * With WORKERS > 1 each worker keeps its own registry and the primary adds them up
 * (src/cluster/cluster-metrics.ts): every metric says how (`aggregator`), so a scrape of any
 * worker describes the whole service. Counters and histograms are summed; gauges say what a sum,
 * a minimum or a maximum means for them.
 *
 * Never a label with a key, a header, a variable or a path a caller chose: operation names are
 * the only caller-given text, and they are capped (operation-label.ts).
 */
export const metricsRegistry = new Registry();

// Process metrics (CPU, memory, heap, event-loop lag, handles, GC), with prom-client's own
// aggregators for the cluster view (sums for CPU and memory, averages for lag, ...).
collectDefaultMetrics({ register: metricsRegistry });

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const requests = new Counter({
  name: 'calendar_http_requests_total',
  help: 'HTTP requests answered, by route, GraphQL operation name (capped; "(anonymous)" when the document names none, "(other)" past the cap) and status.',
  labelNames: ['route', 'operation', 'status'] as const,
  registers: [metricsRegistry],
});

const requestDuration = new Histogram({
  name: 'calendar_http_request_duration_seconds',
  help: 'Time from the arrival of a request to the end of its response, by route, operation and status.',
  labelNames: ['route', 'operation', 'status'] as const,
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** What a response-cache lookup found. */
export type CacheLookupOutcome = 'hit' | 'miss' | 'stale' | 'revalidated';
const CACHE_OUTCOMES: readonly CacheLookupOutcome[] = ['hit', 'miss', 'stale', 'revalidated'];

const cacheLookups = new Counter({
  name: 'calendar_response_cache_lookups_total',
  help: 'Response-cache lookups by outcome: hit, miss, stale (an expired answer served while it is refreshed), revalidated.',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});
// Every outcome from the start, so a rate over a quiet cache is 0 rather than no data.
for (const outcome of CACHE_OUTCOMES) cacheLookups.inc({ outcome }, 0);

const readModelBuild = new Histogram({
  name: 'calendar_read_model_build_seconds',
  help: 'Time to build a snapshot of the calendar (the read model) for a new data version.',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

/**
 * Why the read model built a snapshot (read-model.ts): its first, a newer version, the daily re-read
 * of the same one; with layered versions, why a full build ran instead of a delta: a catalogue change,
 * or the delta past its bound (a compaction).
 */
export type ReadModelBuildReason = 'start' | 'version' | 'reread' | 'catalogue' | 'delta-size';
const READ_MODEL_BUILD_REASONS: readonly ReadModelBuildReason[] = ['start', 'version', 'reread', 'catalogue', 'delta-size'];
/**
 * A full build (every event read), a delta (layered over the last full build: layered-snapshot.ts), or one
 * segment of a full build read again (a compaction of a build in segments, one segment at a time).
 */
export type ReadModelBuildKind = 'full' | 'delta' | 'segment';

const readModelBuilds = new Counter({
  name: 'calendar_read_model_builds_total',
  help: 'Snapshots of the calendar the read model built, by kind (full: every event read; delta: the changed events layered over the last full build; segment: one segment of a full build read again by a compaction) and reason.',
  labelNames: ['kind', 'reason'] as const,
  registers: [metricsRegistry],
});
for (const reason of READ_MODEL_BUILD_REASONS) readModelBuilds.inc({ kind: 'full', reason }, 0);
readModelBuilds.inc({ kind: 'delta', reason: 'version' }, 0);

const readModelVersionChanges = new Histogram({
  name: 'calendar_read_model_version_changed_events',
  help: 'Events changed or removed between the snapshot a build replaced and the new one (the change log), per build of a newer version.',
  buckets: [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000],
  registers: [metricsRegistry],
});

const readModelDeltaEvents = new Gauge({
  name: 'calendar_read_model_delta_events',
  help: 'Events the delta of the served version holds (changed since the last full build; 0 after a full build). A compaction starts past READ_MODEL_DELTA_MOST_EVENTS changed events (with several workers: the largest).',
  registers: [metricsRegistry],
  aggregator: 'max',
});

const dataVersion = new Gauge({
  name: 'calendar_data_version',
  help: 'Data version of the snapshot requests are answered from (with several workers: the oldest any worker serves).',
  registers: [metricsRegistry],
  aggregator: 'min',
});

const databaseDataVersion = new Gauge({
  name: 'calendar_database_data_version',
  help: 'Newest data version this process knows the database holds (its last poll or notice; with several workers: the newest any worker knows).',
  registers: [metricsRegistry],
  aggregator: 'max',
});

const usageFlushFailures = new Counter({
  name: 'calendar_usage_flush_failures_total',
  help: 'Writes of the usage counts that failed (the counts are kept and written with the next flush).',
  registers: [metricsRegistry],
});
usageFlushFailures.inc(0);

const deprecatedUses = new Counter({
  name: 'calendar_deprecated_uses_total',
  help: 'Requests (executions and cache hits) that used a deprecated part of the schema, by schema coordinate (`Filter.sortBy`); who used it: `calendar usage --deprecated`.',
  labelNames: ['coordinate'] as const,
  registers: [metricsRegistry],
});

const cdnPurges = new Counter({
  name: 'calendar_cdn_purges_total',
  help: 'CDN purges after imports, per target (varnish, fastly, cloudflare) and outcome: delivered, or failed (given up after the retry window).',
  labelNames: ['target', 'outcome'] as const,
  registers: [metricsRegistry],
});

const cdnPurgeAttemptFailures = new Counter({
  name: 'calendar_cdn_purge_attempt_failures_total',
  help: 'Purge requests to a CDN target that failed (each is retried with backoff until the retry window ends).',
  labelNames: ['target'] as const,
  registers: [metricsRegistry],
});

const cdnPurgeLag = new Histogram({
  name: 'calendar_cdn_purge_lag_seconds',
  help: 'Time from an import\'s commit to the purge of its tags at every configured CDN target (the database clock for both).',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

/** Whose share an execution drew on (RequestCaller.shareClass): bounded labels. */
export type ShareClass = 'key' | 'anonymous' | 'service';

const executionsServed = new Counter({
  name: 'calendar_executions_total',
  help: 'Executions run (cache misses that executed), by caller class: key, anonymous, service (refreshes of stale answers).',
  labelNames: ['caller_class'] as const,
  registers: [metricsRegistry],
});

const executionsRefused = new Counter({
  name: 'calendar_executions_refused_total',
  help: 'Requests that needed an execution and were not run, by caller class and reason: caller_busy (429: that caller had its most running or waiting), busy (503: the process is full), waited_too_long (503), gone (the client left while it waited).',
  labelNames: ['caller_class', 'reason'] as const,
  registers: [metricsRegistry],
});

const executionWait = new Histogram({
  name: 'calendar_execution_wait_seconds',
  help: 'Time a request waited for its turn to execute (0 when a slot was free), by caller class.',
  labelNames: ['caller_class'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

/** Process-wide, like the registry: the fair-share queues of this process's servers, read at each scrape. */
const executionQueues = new Set<() => { running: number; waiting: number; callers: number }>();

for (const [name, help, read] of [
  ['calendar_executions_running', 'Executions running now (at most EXECUTION_SLOTS per process).', (load: { running: number }) => load.running],
  ['calendar_executions_waiting', 'Requests waiting for their turn to execute, every caller.', (load: { waiting: number }) => load.waiting],
  ['calendar_executions_callers', 'Callers with executions running or waiting (each has its own queue).', (load: { callers: number }) => load.callers],
] as const) {
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    aggregator: 'sum',
    collect() {
      let total = 0;
      for (const source of executionQueues) total += read(source());
      this.set(total);
    },
  });
}

/** Reports a fair-share queue's load while the server runs; returns the function that stops it. */
export function watchExecutionQueue(load: () => { running: number; waiting: number; callers: number }): () => void {
  executionQueues.add(load);
  return () => executionQueues.delete(load);
}

/** The fair-share queue calls these (http/fair-executions.ts). */
export function observeExecutionStart(callerClass: ShareClass, waitedSeconds: number): void {
  executionsServed.inc({ caller_class: callerClass });
  executionWait.observe({ caller_class: callerClass }, waitedSeconds);
}

export function countExecutionRefused(callerClass: ShareClass, reason: 'caller_busy' | 'busy' | 'waited_too_long' | 'gone'): void {
  executionsRefused.inc({ caller_class: callerClass, reason });
}

const budgetRefused = new Counter({
  name: 'calendar_budget_refused_total',
  help: 'Requests answered 429 because their caller\'s budget (RATE_LIMIT_KEY, RATE_LIMIT_ANONYMOUS) could not pay their operation\'s cost, by caller class: key, anonymous.',
  labelNames: ['caller_class'] as const,
  registers: [metricsRegistry],
});

const budgetPoints = new Counter({
  name: 'calendar_budget_points_total',
  help: 'Points charged to callers\' budgets for executions (the operations\' costs), by caller class: key, anonymous.',
  labelNames: ['caller_class'] as const,
  registers: [metricsRegistry],
});

/** Caller budgets call these (identity/caller-budgets.ts). */
export function countBudgetRefused(callerClass: ShareClass): void {
  budgetRefused.inc({ caller_class: callerClass });
}

export function countBudgetPoints(callerClass: ShareClass, points: number): void {
  budgetPoints.inc({ caller_class: callerClass }, points);
}

/** A pool's state now; `pool` names it (`primary`, or a replica's). */
export interface PoolStats {
  pool: string;
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
  /** The configured size (DATABASE_POOL_SIZE). */
  max: number;
}

/** Process-wide, like the registry: the request pools of this process's database handles, read at each scrape. */
const pools = new Set<() => PoolStats[]>();

function poolGauge(name: string, help: string, read: (stats: PoolStats) => number): void {
  new Gauge({
    name,
    help,
    labelNames: ['pool'] as const,
    registers: [metricsRegistry],
    // Summed over workers: the node's connections to the database.
    aggregator: 'sum',
    collect() {
      this.reset();
      for (const source of pools) for (const stats of source()) this.inc({ pool: stats.pool }, read(stats));
    },
  });
}
poolGauge('calendar_db_pool_connections', 'Connections open in the request pool (busy or idle).', (s) => s.total);
poolGauge('calendar_db_pool_idle_connections', 'Idle connections in the request pool.', (s) => s.idle);
poolGauge('calendar_db_pool_waiting_requests', 'Requests waiting for a pool connection (over 0 for long: the pool is too small or the database too slow).', (s) => s.waiting);
poolGauge('calendar_db_pool_max_connections', 'Configured size of the request pool (DATABASE_POOL_SIZE).', (s) => s.max);

const databaseReadsRetried = new Counter({
  name: 'calendar_db_reads_retried_total',
  help: 'Reads retried on a fresh connection because theirs was lost (a terminated backend, a reset socket), by reason.',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

const databaseConnectionsDropped = new Counter({
  name: 'calendar_db_connections_dropped_total',
  help: 'Pool connections dropped as lost, by reason: lost under a statement or while idle, or opened before a loss and dropped unused (`opened_before_loss`).',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

export function countDatabaseReadRetried(reason: string): void {
  databaseReadsRetried.inc({ reason });
}

export function countDatabaseConnectionDropped(reason: string): void {
  databaseConnectionsDropped.inc({ reason });
}

/** Counts a database handle's pools while the service runs; returns the function that stops it. */
export function watchPools(stats: () => PoolStats[]): () => void {
  pools.add(stats);
  return () => pools.delete(stats);
}

/** Process-wide, like the registry: this process's Redis connections, and their gauge once there is one. */
const redisSources = new Set<() => boolean | undefined>();
let redisGauge: Gauge | undefined;

/**
 * Reports a Redis connection's availability; `read` gives undefined once the connection was closed
 * for good. The gauge is registered with the first connection: without REDIS_URL it is absent.
 */
export function watchRedis(read: () => boolean | undefined): void {
  redisSources.add(read);
  redisGauge ??= new Gauge({
    name: 'calendar_redis_available',
    help: '1 while Redis answers (the shared cache is in use), 0 during an outage; absent without REDIS_URL. With several workers: 0 when any worker finds it unavailable.',
    registers: [metricsRegistry],
    aggregator: 'min',
    collect() {
      const states: boolean[] = [];
      for (const source of redisSources) {
        const state = source();
        // A connection closed for good (the service stopped) is no longer reported.
        if (state === undefined) redisSources.delete(source);
        else states.push(state);
      }
      this.set(states.length > 0 && states.every(Boolean) ? 1 : 0);
    },
  });
}

// Process-wide, like the counter: one child per outcome, bound once (a lookup is on every request's path).
const cacheLookupsByOutcome = new Map(CACHE_OUTCOMES.map((outcome) => [outcome, cacheLookups.labels({ outcome })]));

/** Called once per lookup of the response cache, by the writer of the answer (http/stored-answer-writer.ts: only it knows a hit became a 304). */
export function countCacheLookup(outcome: CacheLookupOutcome): void {
  cacheLookupsByOutcome.get(outcome)!.inc();
}

const answerForms = new Counter({
  name: 'calendar_answer_forms_total',
  help: 'Compressed forms of answers made, by form (br, br-best, gzip, zstd) and how: from the finished body (whole) or as a large body was written (as_written).',
  labelNames: ['form', 'made'] as const,
  registers: [metricsRegistry],
});
/** How an answer's compressed form was made: from its finished body, or as its body was written (a large answer: http/answer-bytes.ts). */
export type FormMaking = 'whole' | 'as_written';
// Every form from the start, so a rate on a node that compressed nothing is 0 rather than no data.
for (const form of ['br', 'br-best', 'gzip', 'zstd']) for (const made of ['whole', 'as_written']) answerForms.inc({ form, made }, 0);

/** Called once per compressed form made (http/answer-cache/stored-answer.ts); a hit makes none. */
export function countAnswerForm(form: 'br' | 'br-best' | 'gzip' | 'zstd', made: FormMaking): void {
  answerForms.inc({ form, made });
}

/** The read model calls this when a snapshot is built and swapped in. */
export function observeReadModelBuild(version: string, seconds: number): void {
  readModelBuild.observe(seconds);
  dataVersion.set(Number(version));
}

/** The read model calls this when it learns of a newer data version in the database (a poll, a notice, an import it ran). */
export function observeDatabaseDataVersion(version: string): void {
  databaseDataVersion.set(Number(version));
}

/** The read model calls this per build: why it ran, and (for a newer version) how many events changed since the snapshot it replaced. */
export function countReadModelBuild(kind: ReadModelBuildKind, reason: ReadModelBuildReason, changedEvents: number | null): void {
  readModelBuilds.inc({ kind, reason });
  if (reason === 'version' && changedEvents !== null) readModelVersionChanges.observe(changedEvents);
}

/** The read model calls this when it swaps in a version: the events its delta holds (0 for a full build). */
export function observeServedDelta(events: number): void {
  readModelDeltaEvents.set(events);
}

/** The usage recorder calls this when a write of its counts failed. */
export function countUsageFlushFailure(): void {
  usageFlushFailures.inc();
}

// Bound once per coordinate: a schema has a handful of deprecated coordinates (never caller-given text).
const deprecatedUsesByCoordinate = new Map<string, { inc(): void }>();

/** Every deprecated coordinate of the schema from the start (at 0), so a rate over an unused one is 0 rather than no data. */
export function declareDeprecatedCoordinates(coordinates: readonly string[]): void {
  for (const coordinate of coordinates) deprecatedUses.inc({ coordinate }, 0);
}

/** The GraphQL route calls this for each request that used deprecated coordinates (docs/regenerate.md). */
export function countDeprecatedUses(coordinates: readonly string[]): void {
  for (const coordinate of coordinates) {
    let child = deprecatedUsesByCoordinate.get(coordinate);
    if (!child) deprecatedUsesByCoordinate.set(coordinate, (child = deprecatedUses.labels({ coordinate })));
    child.inc();
  }
}

/** The CDN purger (src/cdn/cdn-purger.ts) calls these. */
export function countCdnPurge(target: string, outcome: 'delivered' | 'failed'): void {
  cdnPurges.inc({ target, outcome });
}

export function countCdnPurgeAttemptFailure(target: string): void {
  cdnPurgeAttemptFailures.inc({ target });
}

export function observeCdnPurgeLag(seconds: number): void {
  cdnPurgeLag.observe(seconds);
}

/** One answered request (telemetry/observe-requests.ts). */
export function observeRequest(labels: { route: string; operation: string; status: string }, seconds: number): void {
  requests.inc(labels);
  requestDuration.observe(labels, seconds);
}

/** This process's metrics in the Prometheus text format. */
export function localMetricsText(): Promise<string> {
  return metricsRegistry.metrics();
}
