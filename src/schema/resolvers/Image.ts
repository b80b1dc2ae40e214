import type { ImageResolvers } from '../../../generated/resolvers-types.js';

export const Image: ImageResolvers = {
  urlSmall: (i) => i.urlSmall,
  urlLarge: (i) => i.urlLarge,
  alt: (i) => i.alt ?? null,
  focusX: (i) => i.focusX ?? null,
  focusY: (i) => i.focusY ?? null,
  width: (i) => i.width ?? null,
  height: (i) => i.height ?? null,
};
