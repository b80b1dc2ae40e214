import type { Kysely } from 'kysely';
import type { CommittedImports } from '../db/committed-imports.js';
import type { ListenForDataVersions } from '../db/data-version-listener.js';
import type { Database } from '../db/database.js';
import { newerDataVersion as newer, readDataVersion } from '../db/repositories/calendar-state.js';
import type { Logger } from '../logger.js';
import { typedArrayBytes, type CalendarSnapshot } from './calendar-snapshot.js';
import { LargeAnswerGate } from './large-answer-gate.js';
import { loadSnapshotSince, RETAINED_ENDED_MS } from './load-snapshot.js';
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
}

/**
 * The calendar's data version, watched, and the snapshot of it that requests read (one data
 * version in one place). A newer version is noticed by LISTEN (PostgreSQL), by a poll every
 * second (both databases, and after a lost notice connection), or in process from the importer
 * (ReadModelOptions.committedImports).
 * It is built in the background while requests keep reading the previous snapshot, then swapped
 * in at once; the old one is released when its last request is done.
 */
export class ReadModel {
  private current: CalendarSnapshot | null = null;
  /** When (performance.now()) the current snapshot was read. */
  private builtAt = 0;
  /** Newest version known to exist. */
  private known: string | null = null;
  /** Whether `known` is newer than the snapshot requests read (kept as a flag: asked on every public answer). */
  private behind = false;
  /** Requests wait for a snapshot at least this new (in-process imports, a moved statement). */
  private required: string | null = null;
  private building: Promise<CalendarSnapshot> | null = null;
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
  async snapshot(): Promise<CalendarSnapshot> {
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
      if (this.current && !this.building && performance.now() - this.builtAt >= rereadAfterMs) void this.build().catch(() => undefined);
    } catch {
      // The database health reports outages; the next poll tries again.
    }
  }

  private readVersion(): Promise<string | undefined> {
    return readDataVersion(this.db);
  }

  /** Builds the newest version (one build at a time; a build started meanwhile is followed by another). */
  private build(): Promise<CalendarSnapshot> {
    this.building ??= (async () => {
      try {
        // More than once when a newer version lands during a build (bounded: versions only grow).
        for (let round = 1; ; round++) {
          const started = performance.now();
          const heapBefore = process.memoryUsage().heapUsed;
          const readAt = performance.now();
          const previous = this.current;
          const replaced = previous?.version ?? null;
          const { snapshot, changes } = await loadSnapshotSince(this.db, this.options.clock(), previous);
          const reason: ReadModelBuildReason = replaced === null ? 'start' : replaced === snapshot.version ? 'reread' : 'version';
          // A build reads the database's version too: the first one is known before any poll.
          this.learn(snapshot.version);
          if (!this.current || !newer(this.current.version, snapshot.version)) {
            const moved = this.current?.version !== snapshot.version;
            this.current = snapshot;
            this.builtAt = readAt;
            this.behind = this.known !== null && newer(this.known, snapshot.version);
            if (moved) for (const listener of this.versionListeners) listener(snapshot.version);
          }
          observeReadModelBuild((this.current ?? snapshot).version, (performance.now() - started) / 1000);
          const changedEvents = changes === null ? null : changes.changedEvents + changes.removedEvents;
          countReadModelBuild(reason, changedEvents);
          this.logger.info(
            {
              kind: 'full',
              reason,
              version: snapshot.version,
              ...(changes && reason === 'version' ? { since: changes.since, changedEvents: changes.changedEvents, removedEvents: changes.removedEvents } : {}),
              events: snapshot.eventIds.length,
              dates: snapshot.dateCount,
              ms: Math.round(performance.now() - started),
              columnsMB: Math.round(typedArrayBytes(snapshot) / 1e5) / 10,
              heapGrowthMB: Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e5) / 10,
            },
            'read model built',
          );
          const wanted = [this.known, this.required].filter((v): v is string => v !== null);
          if (round >= 3 || !wanted.some((v) => newer(v, snapshot.version))) return snapshot;
        }
      } finally {
        this.building = null;
      }
    })();
    return this.building;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poller);
    this.unsubscribeImports?.();
    await this.stopListening?.();
    await this.building?.catch(() => undefined);
  }
}
