/**
 * Where the demo calendar's pictures live: paths on the service itself, drawn on request from the
 * path alone (src/http/demo-pictures.ts), so the demo works offline and stores no picture bytes.
 *
 * `/demo-pictures/<motif>/<variant>-<width>x<height>[-<focusX>-<focusY>].svg`
 * - motif: a category id in lower case (`concert`, `food_drinks`): colours and scenery;
 * - variant: 0–9999, varies the scenery within a motif;
 * - width × height: the pixel size of that file (the small picture is the large one halved);
 * - focusX, focusY: whole percent (0–100) where the people stand; absent: nobody in the picture, as
 *   the spec has it ("both null when no face was found").
 *
 * The calendar stores these paths as they are (root-relative): the origin is not known when the
 * demo is seeded (port 0 in tests, `calendar seed` with no server at all, a proxy in front), so the
 * API answers them as absolute URLs under PUBLIC_BASE_URL when it reads them (resolveDemoPictureUrl).
 */
export const DEMO_PICTURES_PREFIX = '/demo-pictures/';

/** The motifs there are pictures for: the demo's categories. */
export const DEMO_PICTURE_MOTIFS = [
  'family', 'dance', 'festival', 'movies', 'concert', 'course', 'literature', 'market', 'food_drinks', 'museum',
  'guided_tour', 'quiz', 'debate', 'social', 'games', 'sport', 'theater', 'exhibition', 'technology', 'jazz', 'classical',
] as const;

export type DemoPictureMotif = (typeof DEMO_PICTURE_MOTIFS)[number];

export interface DemoPicture {
  motif: DemoPictureMotif;
  variant: number;
  width: number;
  height: number;
  /** Whole percent, or null: no people. */
  focusX: number | null;
  focusY: number | null;
}

/** Large enough for any screen, small enough that nobody asks us to draw a poster. */
export const MAX_DEMO_PICTURE_SIDE = 4096;
const MIN_SIDE = 16;

export function demoPicturePath(picture: DemoPicture): string {
  const focus = picture.focusX === null || picture.focusY === null ? '' : `-${picture.focusX}-${picture.focusY}`;
  return `${DEMO_PICTURES_PREFIX}${picture.motif}/${picture.variant}-${picture.width}x${picture.height}${focus}.svg`;
}

const PATH = /^\/demo-pictures\/([a-z_]{1,20})\/(\d{1,4})-(\d{2,4})x(\d{2,4})(?:-(\d{1,3})-(\d{1,3}))?\.svg$/;
const MOTIFS: ReadonlySet<string> = new Set(DEMO_PICTURE_MOTIFS);

const percent = (text: string | undefined): number | null | undefined => {
  if (text === undefined) return null;
  const value = Number(text);
  return value <= 100 && String(value) === text ? value : undefined;
};

/** The picture a path names, or null when it names none (the route answers 404). Only canonical spellings: one picture, one URL. */
export function parseDemoPicturePath(path: string): DemoPicture | null {
  const match = PATH.exec(path);
  if (!match) return null;
  const [, motif, variantText, widthText, heightText, fx, fy] = match as unknown as [string, string, string, string, string, string | undefined, string | undefined];
  if (!MOTIFS.has(motif)) return null;
  const variant = Number(variantText);
  const width = Number(widthText);
  const height = Number(heightText);
  const focusX = percent(fx);
  const focusY = percent(fy);
  if (focusX === undefined || focusY === undefined) return null;
  const canonical = String(variant) === variantText && String(width) === widthText && String(height) === heightText;
  if (!canonical) return null;
  if (width < MIN_SIDE || height < MIN_SIDE || width > MAX_DEMO_PICTURE_SIDE || height > MAX_DEMO_PICTURE_SIDE) return null;
  return { motif: motif as DemoPictureMotif, variant, width, height, focusX, focusY };
}

/**
 * A stored picture URL as the API answers it: a demo picture's path becomes an absolute URL under
 * the service's public base URL; every other URL (whatever an imported calendar holds) is answered
 * exactly as stored.
 */
export function resolveDemoPictureUrl(stored: string, publicBaseUrl: string | undefined): string {
  if (!publicBaseUrl || !stored.startsWith(DEMO_PICTURES_PREFIX)) return stored;
  return `${publicBaseUrl.replace(/\/+$/, '')}${stored}`;
}
