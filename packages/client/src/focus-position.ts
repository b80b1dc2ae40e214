/** The focus fields of an image: fractions of the picture, 0,0 top left; both null before analysis. */
export interface FocusPoint {
  focusX?: number | null | undefined;
  focusY?: number | null | undefined;
}

/** The crop most pictures look right with when nothing better is known. */
export const DEFAULT_OBJECT_POSITION = '50% 50%';

function percent(fraction: number): number {
  return Math.round(Math.min(1, Math.max(0, fraction)) * 10_000) / 100;
}

/**
 * The CSS `object-position` that puts the image's focus point on the same point of its box (with
 * `object-fit: cover`, X% of the picture lands on X% of the box). Without focus values the
 * caller's default crop stays (spec, Image).
 */
export function focusPosition(image: FocusPoint | null | undefined, fallback: string = DEFAULT_OBJECT_POSITION): string {
  const x = image?.focusX;
  const y = image?.focusY;
  if (x == null || y == null || !Number.isFinite(x) || !Number.isFinite(y)) return fallback;
  return `${percent(x)}% ${percent(y)}%`;
}

/** An inline style for an `<img>` that fills its box, cropped around the focus point. */
export function focusStyle(image: FocusPoint | null | undefined, fallback: string = DEFAULT_OBJECT_POSITION): string {
  return `object-fit: cover; object-position: ${focusPosition(image, fallback)}`;
}
