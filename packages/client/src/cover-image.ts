import { DEFAULT_OBJECT_POSITION, focusPosition, type FocusPoint } from './focus-position.js';

/** The image fields the cover needs. */
export interface ImageLike extends FocusPoint {
  urlSmall: string;
  urlLarge: string;
  alt?: string | null | undefined;
}

export interface CoverImage<TImage extends ImageLike> {
  image: TImage;
  /** The alternative text; empty (decorative) when none was given, as the title already names the event. */
  alt: string;
  /** `object-position`, from the focus point or the default crop. */
  objectPosition: string;
  /** Inline style: `object-fit: cover; object-position: X% Y%`. */
  style: string;
}

/**
 * The cover of an event: its first image (spec, Event `images`), with the CSS that crops it around
 * the focus point, or null when the event has no image.
 */
export function coverImage<TImage extends ImageLike>(
  images: readonly TImage[] | null | undefined,
  fallbackPosition: string = DEFAULT_OBJECT_POSITION,
): CoverImage<TImage> | null {
  const image = images?.[0];
  if (!image) return null;
  const objectPosition = focusPosition(image, fallbackPosition);
  return { image, alt: image.alt?.trim() ?? '', objectPosition, style: `object-fit: cover; object-position: ${objectPosition}` };
}
