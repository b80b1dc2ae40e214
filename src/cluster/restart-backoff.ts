/**
 * When to start a worker again after one died. A worker that crashes now and then is replaced at
 * once; workers that keep dying soon after start (a bad deploy, a poison request sent again and
 * again) are started after pauses that double, up to `maxMs`, so the primary never forks in a
 * tight loop that would starve the workers still serving. Shared by all workers: a storm is a
 * property of the node, not of one slot.
 */
export class RestartBackoff {
  private failures = 0;

  constructor(
    private readonly options: {
      /** Pause after the second quick death in a row (the first is replaced at once). @default 1000 */
      firstPauseMs?: number;
      /** @default 30000 */
      maxMs?: number;
      /** A worker that lived this long died of something else than a start-up loop: the count starts over. @default 30000 */
      stableMs?: number;
    } = {},
  ) {}

  /** The pause before replacing a worker that lived `livedMs`. */
  next(livedMs: number): number {
    if (livedMs >= (this.options.stableMs ?? 30_000)) this.failures = 0;
    const pause = this.failures === 0 ? 0 : Math.min((this.options.firstPauseMs ?? 1000) * 2 ** (this.failures - 1), this.options.maxMs ?? 30_000);
    this.failures += 1;
    return pause;
  }
}
