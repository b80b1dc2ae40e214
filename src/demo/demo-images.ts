import type { CalendarImage } from '../import/import-format.js';
import { DEMO_PICTURE_MOTIFS, demoPicturePath, type DemoPictureMotif } from './demo-picture-path.js';
import type { SeededRandom } from './seeded-random.js';

/** FNV-1a: a picture's looks follow from the event id, without drawing on the calendar's random sequence. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193);
  return value >>> 0;
}

/** Mostly landscape, as event photos are; some portrait and square ones, whose crop the focus point decides. */
const PICTURE_SHAPES: readonly (readonly [width: number, height: number])[] = [
  [1600, 900], [1600, 900], [1600, 900], [1600, 900], [1600, 900], [1600, 1067], [1600, 1067], [1200, 1600], [1200, 1600], [1400, 1400],
];

/**
 * The event's pictures: drawn by the service itself (demo-picture-path.ts), each with the size and
 * focus point its data claims. The path is stored root-relative and answered as an absolute URL.
 */
export function demoImages(random: SeededRandom, id: string, alt: string, category: string): CalendarImage[] {
  const count = random.weighted([[0, 1], [1, 6], [2, 2], [3, 1]] as const);
  return Array.from({ length: count }, (_, n): CalendarImage => {
    const focused = random.chance(0.5);
    const sized = random.chance(0.7);
    const withAlt = random.chance(0.8);
    const drawnX = focused ? random.fraction() : null;
    const drawnY = focused ? random.fraction() : null;
    // Spec: the focus point comes from the same analysis as the size, so a picture not analysed yet has
    // neither; an analysed one has its size, and a focus point when a face was found. (Drawn either way:
    // the calendar's random sequence, and so every other value of it, stays as it was.)
    const focusX = sized ? drawnX : null;
    const focusY = sized ? drawnY : null;
    const looks = hash(`${id}/${n}`);
    const [width, height] = PICTURE_SHAPES[looks % PICTURE_SHAPES.length]!;
    const picture = {
      motif: demoPictureMotif(category),
      variant: (looks >>> 8) % 10000,
      focusX: focusX === null ? null : Math.round(focusX * 100),
      focusY: focusY === null ? null : Math.round(focusY * 100),
    };
    return {
      urlSmall: demoPicturePath({ ...picture, width: Math.round(width / 2), height: Math.round(height / 2) }),
      urlLarge: demoPicturePath({ ...picture, width, height }),
      alt: withAlt ? alt : null,
      focusX,
      focusY,
      // Null until analysed; the picture has its size all the same.
      width: sized ? width : null,
      height: sized ? height : null,
    };
  });
}

function demoPictureMotif(category: string): DemoPictureMotif {
  const motif = category.toLowerCase();
  return (DEMO_PICTURE_MOTIFS as readonly string[]).includes(motif) ? (motif as DemoPictureMotif) : 'festival';
}
