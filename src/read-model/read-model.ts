import type { Kysely } from 'kysely';
import type { CommittedImports } from '../db/committed-imports.js';
import type { ListenForDataVersions } from '../db/data-version-listener.js';
import type { Database } from '../db/database.js';
import { newerDataVersion as newer, readDataVersion } from '../db/repositories/calendar-state.js';
import type { Logger } from '../logger.js';
import { typedArrayBytes } from './snapshot/calendar-snapshot.js';
import type { ChangesSince } from './snapshot/changes-since.js';
import { LargeAnswerGate } from './large-answer-gate.js';
import { fullBuildDates, fullBuildEvents, fullLayers, isFullBuild, type FullBuild, type LayeredSnapshot } from './layers/layered-snapshot.js';
import { loadFullBuildSince, loadLayeredSnapshot, loadSegmentSince, RETAINED_ENDED_MS } from './snapshot/load-snapshot.js';
import { fullCollection, ReplacedBuildRelease, type Release } from './release-replaced-build.js';
import { countReadModelBuild, observeDatabaseDataVersion, observeReadModelBuild, observeServedDelta, type ReadModelBuildReason } from '../telemetry/metrics.js';

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
   * Layered: a compaction (a full build in the background, versions layered on the current one
   * meanwhile) starts once more events than this changed, were removed or rewritten since the last
   * full build. @default DELTA_MOST_EVENTS
   */
  deltaMostEvents?: number | undefined;
  /**
   * After each full build swapped in, run V8's full collection until the build it replaced is gone
   * (release-replaced-build.ts), so that a node's RSS comes back down after a compaction. @default false
   * (the service turns it on; tests of the builds alone need no collections)
   */
  releaseReplacedBuilds?: boolean | undefined;
  /** When (ms after a swap) those collections run, until the replaced build is gone. @default RELEASE_AFTER_MS */
  releaseAfterMs?: readonly number[] | undefined;
  /**
   * A full build holds at most this many events per segment (segments/event-segments.ts: the events
   * split by a hash of their id, one snapshot each, built one after another; a compaction reads one
   * segment again at a time). @default null (one segment)
   */
  segmentEvents?: number | null | undefined;
}

/**
 * Layered versions: events changed since the last full build past which a compaction starts. A delta
 * is built afresh for every version, at ~40 µs of CPU per event it holds against ~30 µs per calendar
 * event for a full build (bench/freshness.ts at 100 000 events: 5 000 changed 310 ms, 20 000 changed
 * 860 ms, a full build ~3 s): at 5 000 a version stays well inside the second an import has to show
 * in, at any calendar size (docs/performance.md, "The delta's bound").
 */
export const DELTA_MOST_EVENTS = 5000;

/**
 * Layered versions: a version that changed more than DELTA_MOST_EVENTS plus this share of the full
 * build's events is a full build on the spot rather than a delta (a delta of a quarter of the calendar
 * costs about a third of a full build, and a compaction would follow anyway: `--replace` of a whole
 * file, a mass re-import).
 */
const DELTA_LARGEST_SHARE = 0.25;

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
  /** Layered: a full build running in the background (compaction) while versions keep layering on the current one. */
  private compacting: Promise<void> | null = null;
  /**
   * A compaction's full build, done: the next build layers the newest version on it and swaps it in.
   * `segmentStep`: one segment of the build read again (the release waits for the compaction's last step).
   */
  private compacted: { layers: LayeredSnapshot; readAt: number; segmentStep: boolean } | null = null;
  /** The collections after the last full build swapped in (tests await it). */
  lastRelease: Promise<Release> | null = null;
  /** Full builds swapped in so far: a compaction that started before one is dropped (its build is older). */
  private fullBuildsSwapped = 0;
  private poller: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private readonly unsubscribeImports: (() => void) | undefined;
  private closed = false;
  private readonly release: ReplacedBuildRelease | null;
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
    this.release = options.releaseReplacedBuilds ? new ReplacedBuildRelease(options.logger, options.releaseAfterMs) : null;
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
      if (this.current && !this.building && !this.compacting && performance.now() - this.builtAt >= rereadAfterMs) {
        // Layered, in the background: versions keep showing meanwhile (at 1M events a full build is ~45 s).
        if (this.options.layered) this.compact('reread');
        else void this.build('reread').catch(() => undefined);
      }
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
    let readAt = performance.now();
    const previous = this.current;
    // A compaction done: the newest version is layered on its full build instead of the current one.
    const compacted = this.compacted;
    this.compacted = null;
    const over = compacted?.layers ?? previous;
    let layers: LayeredSnapshot | null = null;
    let changes: ChangesSince | null = null;
    let changedSinceFull = 0;
    let reason: ReadModelBuildReason;
    if (over === null) reason = 'start';
    else if (intent === 'reread') reason = 'reread';
    else if (!this.options.layered) reason = 'version';
    else {
      const largest = this.deltaMostEvents + Math.floor(fullBuildEvents(over.full) * DELTA_LARGEST_SHARE);
      const loaded = await loadLayeredSnapshot(this.db, over, largest);
      if ('fallback' in loaded) reason = loaded.fallback === 'older-version' ? 'version' : loaded.fallback;
      else {
        layers = loaded.layered;
        changes = loaded.changes;
        changedSinceFull = loaded.changedSinceFull;
        reason = 'version';
        if (compacted && layers.full === compacted.layers.full) readAt = compacted.readAt;
      }
    }
    if (!layers) {
      const loaded = await loadFullBuildSince(this.db, this.options.clock(), previous, this.segmentEvents);
      layers = fullLayers(loaded.full);
      changes = loaded.changes;
    }
    // The compaction's own build, swapped in as it is: its `read model built` line was written when it was built.
    const compactionSwapped = compacted !== null && layers === compacted.layers;
    // A reread of the same version is no news; a newer layered version keeps the full build's clock.
    if (previous && layers.version === previous.version && reason === 'version') reason = 'reread';
    const kind = isFullBuild(layers) ? 'full' : 'delta';
    // A build reads the database's version too: the first one is known before any poll.
    this.learn(layers.version);
    if (!this.current || !newer(this.current.version, layers.version)) {
      const moved = this.current?.version !== layers.version;
      const replaced = this.current?.full ?? null;
      const fullSwapped = layers.full !== replaced;
      if (fullSwapped) {
        this.builtAt = readAt;
        this.fullBuildsSwapped++;
      }
      this.current = layers;
      // A full build swapped in: the one it replaced (none at start) and the build's garbage go back to the system
      // (after a compaction's last segment only: compactSegments).
      const segmentStep = compacted !== null && compacted.segmentStep && layers.full === compacted.layers.full;
      if (fullSwapped && this.release && !segmentStep) this.lastRelease = this.release.schedule(replaced);
      observeServedDelta(layers.delta?.eventIds.length ?? 0);
      this.behind = this.known !== null && newer(this.known, layers.version);
      if (moved) for (const listener of this.versionListeners) listener(layers.version);
    }
    if (compactionSwapped) return layers;
    if (kind === 'delta' && changedSinceFull > this.deltaMostEvents) this.compact('delta-size');
    this.reportBuild(layers, reason, changes, started, heapBefore);
    return layers;
  }

  /**
   * Times and counts a build by kind and reason and writes its `read model built` line (`extra`: more fields
   * of the line; `segment`: the segment a compaction read again, the line's `events` and `dates` its own).
   */
  private reportBuild(
    layers: LayeredSnapshot,
    reason: ReadModelBuildReason,
    changes: ChangesSince | null,
    started: number,
    heapBefore: number,
    extra: Record<string, unknown> = {},
    segment: number | null = null,
  ): void {
    const { delta } = layers;
    const full = segment === null ? layers.full : { ...layers.full, segments: [layers.full.segments[segment]!] };
    const kind = segment !== null ? 'segment' : isFullBuild(layers) ? 'full' : 'delta';
    const fullEvents = fullBuildEvents(full);
    observeReadModelBuild((this.current ?? layers).version, (performance.now() - started) / 1000);
    countReadModelBuild(kind, reason, changes === null ? null : changes.changedEvents + changes.removedEvents);
    this.logger.info(
      {
        kind,
        reason,
        version: segment === null ? layers.version : layers.full.segments[segment]!.version,
        ...(changes && changes.since !== layers.version ? { since: changes.since, changedEvents: changes.changedEvents, removedEvents: changes.removedEvents } : {}),
        events: kind === 'delta' ? fullEvents - layers.masked + (delta?.eventIds.length ?? 0) : fullEvents,
        dates: fullBuildDates(full),
        ...(layers.full.segments.length > 1 ? { segments: layers.full.segments.length } : {}),
        ...(segment !== null ? { segment } : {}),
        ...(kind === 'delta' ? { base: full.version, deltaEvents: delta?.eventIds.length ?? 0, deltaDates: delta?.dateCount ?? 0, masked: layers.masked } : {}),
        ...extra,
        ms: Math.round(performance.now() - started),
        columnsMB: Math.round((kind !== 'delta' || !delta ? full.segments.reduce((bytes, own) => bytes + typedArrayBytes(own), 0) : typedArrayBytes(delta)) / 1e5) / 10,
        heapGrowthMB: Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e5) / 10,
      },
      'read model built',
    );
  }

  private get segmentEvents(): number | null {
    return this.options.segmentEvents ?? null;
  }

  private get deltaMostEvents(): number {
    return this.options.deltaMostEvents ?? DELTA_MOST_EVENTS;
  }

  /**
   * Layered: a full build of the newest version in the background (Lucene's merge), while versions
   * keep being layered on the current full build and served; once built, the next build layers the
   * newest version on it and swaps it in. One at a time; dropped when a full build on the request
   * path (a catalogue change, a start) swapped in meanwhile. A build of one snapshot peaks at the
   * build being replaced, still serving, beside the new one (docs/performance.md); a build in segments
   * is compacted one segment at a time (`compactSegments`).
   */
  private compact(reason: 'delta-size' | 'reread'): void {
    if (this.compacting || this.closed || !this.current) return;
    const { full } = this.current;
    // The build replaced only weakly held: each segment's memory goes as soon as it is swapped out.
    const compaction = full.segments.length > 1 ? this.compactSegments(reason, new WeakRef(full), full.segments.length) : this.compactWhole(reason);
    this.compacting = compaction
      .catch((error: unknown) => this.logger.warn({ err: error }, 'a compaction of the read model failed; the next version or the daily re-read tries again'))
      .finally(() => {
        this.compacting = null;
      });
  }

  private async compactWhole(reason: 'delta-size' | 'reread'): Promise<void> {
    const swappedBefore = this.fullBuildsSwapped;
    const started = performance.now();
    const heapBefore = process.memoryUsage().heapUsed;
    const loaded = await loadFullBuildSince(this.db, this.options.clock(), this.current, this.segmentEvents);
    const layers = fullLayers(loaded.full);
    const dropped = swappedBefore !== this.fullBuildsSwapped || this.closed;
    this.reportBuild(layers, reason, loaded.changes, started, heapBefore, { compaction: dropped ? 'dropped' : 'swapping in' });
    if (dropped) return;
    await this.swapInCompacted(layers, started, false);
  }

  /**
   * A full build in segments compacted one segment at a time (issue 54): each is read again at the newest
   * version and swapped in at once (the next build layers the newest version over it: the delta sheds that
   * segment's events), so that a compaction holds one segment's build beside the serving ones, never a
   * second calendar. Stops when a full build on the request path replaced the build meanwhile. The
   * replaced segments' memory is given back once, after the last (release-replaced-build.ts).
   */
  private async compactSegments(reason: 'delta-size' | 'reread', replaced: WeakRef<FullBuild>, count: number): Promise<void> {
    const started = performance.now();
    let expected = replaced.deref();
    for (let index = 0; index < count; index++) {
      const serving = this.current;
      if (this.closed || !serving || serving.full !== expected) return;
      const stepStarted = performance.now();
      const heapBefore = process.memoryUsage().heapUsed;
      const full = await loadSegmentSince(this.db, this.options.clock(), serving.full, index, serving);
      const layers = fullLayers(full);
      const dropped = this.current?.full !== expected || this.closed;
      this.reportBuild(layers, reason, null, stepStarted, heapBefore, { compaction: dropped ? 'dropped' : 'swapping in' }, index);
      if (dropped) return;
      await this.swapInCompacted(layers, started, true);
      expected = full;
      // The segment replaced is garbage now: collected before the next is read, so that garbage never piles up over the steps.
      if (this.release) fullCollection()({ type: 'major', execution: 'sync' });
    }
    if (this.release && this.current?.full === expected) this.lastRelease = this.release.schedule(replaced.deref() ?? null);
  }

  /** The next build layers the newest version on a compaction's build and swaps it in. */
  private async swapInCompacted(layers: LayeredSnapshot, readAt: number, segmentStep: boolean): Promise<void> {
    this.compacted = { layers, readAt, segmentStep };
    // The build running now (if any) began before this one was done: the next one takes it.
    await this.building?.catch(() => undefined);
    if (this.compacted) await this.build();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poller);
    this.release?.cancel();
    this.unsubscribeImports?.();
    await this.stopListening?.();
    await this.compacting;
    await this.building?.catch(() => undefined);
  }
}
