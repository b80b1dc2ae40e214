import type { Kysely } from 'kysely';
import type { CommittedImports } from '../db/committed-imports.js';
import type { ListenForDataVersions } from '../db/data-version-listener.js';
import type { Database } from '../db/database.js';
import { newerDataVersion as newer, readDataVersion } from '../db/repositories/calendar-state.js';
import type { Logger } from '../logger.js';
import { typedArrayBytes } from './calendar-snapshot.js';
import type { ChangesSince } from './changes-since.js';
import { LargeAnswerGate } from './large-answer-gate.js';
import { fullLayers, type LayeredSnapshot } from './layered-snapshot.js';
import { loadLayeredSnapshot, loadSnapshotSince, RETAINED_ENDED_MS } from './load-snapshot.js';
import { countReadModelBuild, observeDatabaseDataVersion, observeReadModelBuild, type ReadModelBuildReason } from '../telemetry/metrics.js';

export interface ReadModelOptions {
  db: Kysely<Database>;
  /** The service clock: which dates have ended when a snapshot is built. */
  clock: () => Date;
  logger: Logger;
  /** PostgreSQL LISTEN on the importer's notices; absent on the embedded database (polling alone). */
  listen?: ListenForDataVersions | undefined;
  /**
   * Imports committed in this process to the database read: requests wait for each one's version from
   * then on (the importer's caller sees its own import at once). @default none (LISTEN and the poll alone)
   */
  committedImports?: CommittedImports | undefined;
  /** The backstop: how often the current version is read. @default 1000 */
  pollIntervalMs?: number | undefined;
  /**
   * How long (in real time, not the service clock) a snapshot is kept before the same version is
   * read afresh, dropping the dates that ended meanwhile. @default RETAINED_ENDED_MS (a day)
   */
  rereadAfterMs?: number | undefined;
  /**
   * Apply a newer version as layers over the last full build (layered-snapshot.ts: what changed since,
   * masked out of it and read into a small delta) rather than a full build. @default false
   */
  layered?: boolean | undefined;
  /**
   * Layered: a full build (compaction) runs instead once the delta would hold more events than this
   * (changed, removed or rewritten since the last full build). @default DELTA_MOST_EVENTS
   */
  deltaMostEvents?: number | undefined;
}

/**
 * Layered versions: most events a delta holds before a compaction (a full build) runs instead. Each
 * answer walks the delta besides the base, and a page asks the delta for all its nodes up to the page's
 * end and the base for the page's window widened by those, so a delta should stay small beside the base;
 * this bound is provisional (docs/performance.md).
 */
export const DELTA_MOST_EVENTS = 5000;

/** Why a full build or a delta was built (the `read model built` line's `reason`, the builds counter's label). */
type BuildIntent = 'newest' | 'reread';

/**
 * The calendar's data version, watched, and the snapshot of it that requests read (one data
 * version in one place). A newer version is noticed by LISTEN (PostgreSQL), by a poll every
 * second (both databases, and after a lost notice connection), or in process from the importer
 * (ReadModelOptions.committedImports).
 * It is built in the background while requests keep reading the previous snapshot, then swapped
 * in at once; the old one is released when its last request is done.
 */
export class ReadModel {
  private current: LayeredSnapshot | null = null;
  /** When (performance.now()) the current snapshot was read. */
  private builtAt = 0;
  /** Newest version known to exist. */
  private known: string | null = null;
  /** Whether `known` is newer than the snapshot requests read (kept as a flag: asked on every public answer). */
  private behind = false;
  /** Requests wait for a snapshot at least this new (in-process imports, a moved statement). */
  private required: string | null = null;
  private building: Promise<LayeredSnapshot> | null = null;
  /** A full build asked while another build ran, to run after it (one, however many ask). */
  private fullBuildNext: Promise<LayeredSnapshot> | null = null;
  /** What the running build was asked. */
  private buildingIntent: BuildIntent = 'newest';
  private poller: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private readonly unsubscribeImports: (() => void) | undefined;
  private closed = false;
  private readonly versionListeners: ((version: string) => void)[] = [];
  private readonly db: Kysely<Database>;
  private readonly logger: Logger;
  /**
   * Large area answers built at once from this model's snapshots (see LargeAnswerGate): one slot.
   * The service has one read model per process, so this bounds the process; read models of their
   * own (tests, benchmarks) do not wait for one another.
   */
  readonly largeAreaAnswers = new LargeAnswerGate({ slots: 1 });

  constructor(private readonly options: ReadModelOptions) {
    this.db = options.db;
    this.logger = options.logger;
    this.unsubscribeImports = options.committedImports?.subscribe(() => this.catchUp());
  }

  /**
   * Starts watching the version and building the first snapshot (not awaited: the service answers
   * /health at once and /ready once it is built; requests wait for it). A failed build is retried
   * by the next request or poll.
   */
  async start(): Promise<void> {
    const interval = this.options.pollIntervalMs ?? 1000;
    this.poller = setInterval(() => void this.poll(), interval);
    this.poller.unref();
    if (this.options.listen) {
      try {
        this.stopListening = await this.options.listen({
          onVersion: (version) => this.notice(version),
          onReconnect: () => void this.poll(),
        });
      } catch (error) {
        // The poll still notices every import; LISTEN only makes it sooner.
        this.logger.warn({ err: error }, 'cannot listen for data-version notices; polling only');
      }
    }
    this.snapshot().catch((error: unknown) => {
      this.logger.warn({ err: error }, 'the read model could not be built yet; retrying on the next request');
    });
  }

  /**
   * Calls `listener` with each data version this model answers from, once its snapshot is swapped
   * in (the first one included): what this node serves from now on.
   */
  onVersion(listener: (version: string) => void): void {
    this.versionListeners.push(listener);
  }

  /**
   * Whether requests read a snapshot older than a version this model knows exists (an import it is
   * still reading, for a build's time): their answers are already outdated, and shared caches must
   * not keep them (an edge purged for that import would keep the old answer for a whole TTL).
   */
  get answersOutdated(): boolean {
    return this.behind;
  }

  /** Whether this model knows of a version newer than `version` (an answer of `version` is outdated already). */
  knowsNewerThan(version: string): boolean {
    const known = this.known;
    return known !== null && known !== version && newer(known, version);
  }

  /** Whether a snapshot exists (readiness). */
  get ready(): boolean {
    return this.current !== null;
  }

  /** Data version of the snapshot requests read now, or null before the first one. */
  get version(): string | null {
    return this.current?.version ?? null;
  }

  /**
   * The data version a request starting now reads at (what the response cache keys answers by):
   * the current snapshot's, or, before the first one or while a newer version this process must see
   * is built, the version of the snapshot it waits for.
   */
  requestVersion(): string | Promise<string> {
    const current = this.current;
    if (current && (this.required === null || !newer(this.required, current.version))) return current.version;
    return this.snapshot().then((snapshot) => snapshot.version);
  }

  /**
   * The snapshot to answer from: the current one, unless none exists yet or a version this process
   * must see (an import it ran, a newer version a statement saw) is not built yet.
   */
  async snapshot(): Promise<LayeredSnapshot> {
    for (let round = 1; ; round++) {
      const current = this.current;
      if (current && (this.required === null || !newer(this.required, current.version))) return current;
      // A build already running may have started before the required version committed.
      const built = await this.build();
      if (round >= 3) return built;
    }
  }

  /** Requests from now on wait for `version` (or newer). */
  require(version: string): void {
    if (this.required === null || newer(version, this.required)) this.required = version;
    this.notice(version);
  }

  /** A version exists: build it in the background when it is newer than the snapshot. */
  private notice(version: string): void {
    this.learn(version);
    this.behind = this.current !== null && this.known !== null && newer(this.known, this.current.version);
    if (!this.current || newer(version, this.current.version)) void this.build().catch(() => undefined);
  }

  /** The database holds `version` (noticed, or read by a build): the newest such is `known`, and exported. */
  private learn(version: string): void {
    if (this.known === null || newer(version, this.known)) {
      this.known = version;
      observeDatabaseDataVersion(version);
    }
  }

  /** Reads the database's version now; requests wait for it when it is newer than the snapshot. */
  async catchUp(): Promise<void> {
    const version = await this.readVersion().catch(() => undefined);
    if (version !== undefined && (!this.current || newer(version, this.current.version))) this.require(version);
  }

  private async poll(): Promise<void> {
    if (this.closed) return;
    try {
      const version = await this.readVersion();
      // Also retries a first build that failed (the database was away): there is no snapshot yet.
      if (version !== undefined) this.notice(version);
      // A snapshot keeps the dates that had not ended when it was read: without an import for days,
      // dates long past would pile up in every walk. Read the same version afresh once a day. Real
      // time, not the service clock: a clock a test sets back and forth must not drop dates it needs.
      const rereadAfterMs = this.options.rereadAfterMs ?? RETAINED_ENDED_MS;
      if (this.current && !this.building && performance.now() - this.builtAt >= rereadAfterMs) void this.build('reread').catch(() => undefined);
    } catch {
      // The database health reports outages; the next poll tries again.
    }
  }

  private readVersion(): Promise<string | undefined> {
    return readDataVersion(this.db);
  }

  /**
   * Builds the newest version (one build at a time; a build started meanwhile is followed by another):
   * as layers over the current full build when `layered` is on and nothing calls for a full one, else
   * a full build. `intent`: the daily re-read asks a full build even of the same version.
   */
  private build(intent: BuildIntent = 'newest'): Promise<LayeredSnapshot> {
    if (this.building) {
      // A full build running (the re-read) serves another re-read too.
      if (intent === 'newest' || this.buildingIntent !== 'newest') return this.building;
      // A full build asked while another build runs (a delta being built would not do): one, after it.
      this.fullBuildNext ??= this.building
        .catch(() => undefined)
        .then(() => {
          this.fullBuildNext = null;
          return this.build(intent);
        });
      return this.fullBuildNext;
    }
    this.buildingIntent = intent;
    const building = (async () => {
      try {
        // More than once when a newer version lands during a build (bounded: versions only grow).
        for (let round = 1; ; round++) {
          const built = await this.buildOnce(round === 1 ? intent : 'newest');
          const wanted = [this.known, this.required].filter((v): v is string => v !== null);
          if (round >= 3 || !wanted.some((v) => newer(v, built.version))) return built;
        }
      } finally {
        this.building = null;
      }
    })();
    this.building = building;
    return building;
  }

  private async buildOnce(intent: BuildIntent): Promise<LayeredSnapshot> {
    const started = performance.now();
    const heapBefore = process.memoryUsage().heapUsed;
    const readAt = performance.now();
    const previous = this.current;
    let layers: LayeredSnapshot | null = null;
    let changes: ChangesSince | null = null;
    let reason: ReadModelBuildReason;
    if (previous === null) reason = 'start';
    else if (intent === 'reread') reason = 'reread';
    else if (!this.options.layered) reason = 'version';
    else {
      const loaded = await loadLayeredSnapshot(this.db, previous);
      if ('fallback' in loaded) reason = loaded.fallback === 'catalogue' ? 'catalogue' : 'version';
      else if ((loaded.layered.delta?.eventIds.length ?? 0) + loaded.layered.masked > (this.options.deltaMostEvents ?? DELTA_MOST_EVENTS)) reason = 'delta-size';
      else {
        layers = loaded.layered;
        changes = loaded.changes;
        reason = 'version';
      }
    }
    if (!layers) {
      const loaded = await loadSnapshotSince(this.db, this.options.clock(), previous);
      layers = fullLayers(loaded.snapshot);
      changes = loaded.changes;
    }
    // A reread of the same version is no news; a newer layered version keeps the full build's clock.
    if (previous && layers.version === previous.version && reason === 'version') reason = 'reread';
    const kind = layers.base === layers.full ? 'full' : 'delta';
    // A build reads the database's version too: the first one is known before any poll.
    this.learn(layers.version);
    if (!this.current || !newer(this.current.version, layers.version)) {
      const moved = this.current?.version !== layers.version;
      this.current = layers;
      if (kind === 'full') this.builtAt = readAt;
      this.behind = this.known !== null && newer(this.known, layers.version);
      if (moved) for (const listener of this.versionListeners) listener(layers.version);
    }
    observeReadModelBuild((this.current ?? layers).version, (performance.now() - started) / 1000);
    const changedEvents = changes === null ? null : changes.changedEvents + changes.removedEvents;
    countReadModelBuild(kind, reason, changedEvents);
    const { full, delta } = layers;
    this.logger.info(
      {
        kind,
        reason,
        version: layers.version,
        ...(changes && changes.since !== layers.version ? { since: changes.since, changedEvents: changes.changedEvents, removedEvents: changes.removedEvents } : {}),
        events: kind === 'full' ? full.eventIds.length : full.eventIds.length - layers.masked + (delta?.eventIds.length ?? 0),
        dates: full.dateCount,
        ...(kind === 'delta' ? { base: full.version, deltaEvents: delta?.eventIds.length ?? 0, deltaDates: delta?.dateCount ?? 0, masked: layers.masked } : {}),
        ms: Math.round(performance.now() - started),
        columnsMB: Math.round(typedArrayBytes(kind === 'full' ? full : (delta ?? full)) / 1e5) / 10,
        heapGrowthMB: Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e5) / 10,
      },
      'read model built',
    );
    return layers;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poller);
    this.unsubscribeImports?.();
    await this.stopListening?.();
    await this.building?.catch(() => undefined);
  }
}
