import { coverImage, formatOslo, type ImageLike } from '../../../packages/client/src/index.js';
import { h } from './dom.js';

/**
 * The picture box of a card: a calendar leaf (the Oslo day and month) as the placeholder, with the
 * cover laid over it, cropped on its focus point. A cover that fails to load (a deleted file, a CDN
 * down) is taken away so the leaf shows instead of a broken-image glyph or alt text drawn over the
 * box; its alternative text stays for screen readers on the box itself.
 */
export function cardMedia(images: readonly ImageLike[] | null | undefined, start: Date, locale: string): HTMLDivElement {
  const cover = coverImage(images);
  const leaf = h(
    'span',
    { class: 'ecw-leaf', 'aria-hidden': 'true' },
    h('span', { class: 'ecw-leaf-day' }, formatOslo(start, { day: 'numeric' }, locale)),
    h('span', { class: 'ecw-leaf-month' }, formatOslo(start, { month: 'short' }, locale).replace(/\.$/, '')),
  );
  const box = h('div', { class: 'ecw-media' }, leaf);
  if (!cover) return box;

  const picture = h('img', {
    src: cover.image.urlSmall,
    srcset: `${cover.image.urlSmall} 1x, ${cover.image.urlLarge} 2x`,
    alt: cover.alt,
    loading: 'lazy',
    decoding: 'async',
    style: cover.style,
  });
  picture.addEventListener(
    'error',
    () => {
      picture.remove();
      box.classList.add('ecw-media--fallback');
      if (cover.alt) {
        box.setAttribute('role', 'img');
        box.setAttribute('aria-label', cover.alt);
      }
    },
    { once: true },
  );
  box.append(picture);
  return box;
}
