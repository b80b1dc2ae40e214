/**
 * The writes of one import, run one after another in the background on the transaction's one
 * connection, so that the loader reads and checks the next batch meanwhile. A write that fails
 * stops every later one: the queue stays failed, and the next `barrier` throws.
 */
export class WriteQueue {
  private writing: Promise<void> = Promise.resolve();

  enqueue(work: () => Promise<void>): void {
    const next = this.writing.then(work);
    // Handled here so that a failure waits for the next `barrier` instead of ending the process.
    next.catch(() => undefined);
    this.writing = next;
  }

  /**
   * The writes handed over so far: settles when they are done, or throws the first that failed.
   * Await it at once to read the database after them; keep it and await it after handing over
   * more to let one batch write while the next is prepared.
   */
  barrier(): Promise<void> {
    return this.writing;
  }

  /** Waits for the writes in flight whatever their outcome (before the transaction is rolled back). */
  async settle(): Promise<void> {
    await this.writing.catch(() => undefined);
  }
}
