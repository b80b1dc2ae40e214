/**
 * The first position in [low, high) for which `after(p)` holds, or `high` when it holds nowhere: a binary
 * search over positions sorted so that `after` is false up to some position and true from it on (the
 * read model's one; each caller says what its order is).
 */
export function firstWhere(low: number, high: number, after: (p: number) => boolean): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (after(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}
