import type { ImageResolvers } from '../../../generated/resolvers-types.js';
import { resolveDemoPictureUrl } from '../../demo/demo-picture-path.js';

export const Image = {
  // The demo calendar's pictures are stored as paths on this service: answered as absolute URLs.
  urlSmall: (i, _args, context) => resolveDemoPictureUrl(i.urlSmall, context.publicBaseUrl),
  urlLarge: (i, _args, context) => resolveDemoPictureUrl(i.urlLarge, context.publicBaseUrl),
  alt: (i) => i.alt ?? null,
  focusX: (i) => i.focusX ?? null,
  focusY: (i) => i.focusY ?? null,
  width: (i) => i.width ?? null,
  height: (i) => i.height ?? null,
} satisfies ImageResolvers;
