/**
 * The imports committed through one database handle, announced in this process: the read models
 * reading that database catch up with each at once, since the importer's caller expects to see its
 * own import (a test that imports then queries, a serving process that seeds its empty database),
 * not within the next poll. One per handle (openDatabase makes it; copies of the handle share it),
 * so an import reaches the read models of its own database and no other. Other processes learn of an
 * import by NOTIFY or their poll (data-version-listener.ts).
 */
export class CommittedImports {
  private readonly readers = new Set<() => Promise<void>>();

  /** Calls `catchUp` after each import committed through this handle, until the returned function is called. */
  subscribe(catchUp: () => Promise<void>): () => void {
    this.readers.add(catchUp);
    return () => void this.readers.delete(catchUp);
  }

  /** An import committed: resolves once every reader has caught up with it. */
  async announce(): Promise<void> {
    await Promise.all([...this.readers].map((catchUp) => catchUp()));
  }
}
