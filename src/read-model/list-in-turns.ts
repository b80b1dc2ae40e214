/** The entries of a list handed out a chunk per turn of the event loop (see `listInTurns`). */
export interface ListInTurns<T> {
  /** One promise per item, in order: what a resolver returns as a list. */
  list: Promise<T>[];
  /** Resolves once the last chunk has been handed out and completed. */
  done: Promise<void>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Hands a long list to GraphQL execution a chunk at a time. The executor (graphql-js and graphql-jit
 * alike) completes a list's items in one synchronous loop: tens of thousands of events with their
 * fields hold the event loop for hundreds of milliseconds, and every other request, `/health` and the
 * database sockets wait. A list of promises is completed item by item as each promise resolves, so
 * the items are released a chunk per `setImmediate`: between chunks, Node reads sockets and answers
 * other requests (an immediate scheduled from a microtask runs after the next poll for I/O).
 */
export function listInTurns<T>(items: readonly T[], chunkSize: number): ListInTurns<T> {
  const list: Promise<T>[] = new Array<Promise<T>>(items.length);
  let turn: Promise<void> = Promise.resolve();
  for (let start = 0; start < items.length; start += chunkSize) {
    turn = turn.then(nextTurn);
    const end = Math.min(start + chunkSize, items.length);
    for (let i = start; i < end; i++) {
      const item = items[i]!;
      list[i] = turn.then(() => item);
    }
  }
  // One more turn: the last chunk's items complete in the microtasks after their promises resolve.
  return { list, done: turn.then(nextTurn) };
}
