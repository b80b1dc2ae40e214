import { firstWhere } from '../first-where.js';

/** How many values of the ascending run values[from .. to) are at most t. */
export function countAtMost(values: Float64Array, from: number, to: number, t: number): number {
  return firstWhere(from, to, (k) => !(values[k]! <= t)) - from;
}

/** How many values of the ascending run values[from .. to) are after t (an entity's last ends: its events with a date not ended at t). */
export function countAfter(values: Float64Array, from: number, to: number, t: number): number {
  return to - from - countAtMost(values, from, to, t);
}
