import { osloWallClock, parseServiceTimestamp } from '../../../packages/client/src/index.js';

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * Whether the reader's own clock reads differently from Oslo's at any of these instants. Times are
 * always shown in Oslo time (spec, Date and time rule 3): a reader in Los Angeles must be told so; a
 * reader in Oslo, or in Berlin with the same clock, need not be.
 */
export function readerClockDiffers(timestamps: readonly string[]): boolean {
  return timestamps.some((timestamp) => {
    const instant = parseServiceTimestamp(timestamp);
    const oslo = osloWallClock(instant);
    const local = `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())} ${pad(instant.getHours())}:${pad(instant.getMinutes())}`;
    return `${oslo.date} ${oslo.time}` !== local;
  });
}
