import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { RANK_BLOCK_SHIFT } from '../snapshot/walk-indexes.js';

/**
 * The positions [from, to) of the listing order whose dates have not ended at `alive`, skipping whole
 * blocks whose dates have all ended (`rankBlockEnds`).
 */
export class RankWindow {
  private rank: number;
  private readonly dateOrder: Uint32Array;
  private readonly dateEnds: Float64Array;
  private readonly blockEnds: Float64Array;

  constructor(
    snapshot: CalendarSnapshot,
    from: number,
    private readonly to: number,
    private readonly alive: number,
  ) {
    this.rank = from;
    this.dateOrder = snapshot.dateOrder;
    this.dateEnds = snapshot.dateEnds;
    this.blockEnds = snapshot.walk.rankBlockEnds;
  }

  next(): number {
    const { to, alive, dateOrder, dateEnds, blockEnds } = this;
    const blockMask = (1 << RANK_BLOCK_SHIFT) - 1;
    for (let rank = this.rank; rank < to; rank++) {
      if ((rank & blockMask) === 0) {
        while (rank < to && blockEnds[rank >> RANK_BLOCK_SHIFT]! <= alive) rank += blockMask + 1;
        if (rank >= to) break;
      }
      if (dateEnds[dateOrder[rank]!]! > alive) {
        this.rank = rank + 1;
        return rank;
      }
    }
    this.rank = to;
    return -1;
  }
}
