import { describe, expect, it } from 'vitest';
import { coverImage, focusPosition, focusStyle } from '../../packages/client/src/index.js';

const image = (focusX: number | null, focusY: number | null, alt: string | null = 'Band on stage') => ({
  urlSmall: 'https://img.example.no/s.jpg',
  urlLarge: 'https://img.example.no/l.jpg',
  alt,
  focusX,
  focusY,
});

describe('focusPosition', () => {
  it('puts the focus point at the same point of the box, in percent', () => {
    expect(focusPosition(image(0.25, 0.8))).toBe('25% 80%');
    expect(focusPosition(image(0, 1))).toBe('0% 100%');
    expect(focusPosition(image(1 / 3, 0.125))).toBe('33.33% 12.5%');
  });

  it('keeps the default crop while focus is null (no face found, or not analysed yet)', () => {
    expect(focusPosition(image(null, null))).toBe('50% 50%');
    expect(focusPosition(image(0.3, null))).toBe('50% 50%');
    expect(focusPosition(undefined)).toBe('50% 50%');
  });

  it('keeps a caller-given default crop', () => {
    expect(focusPosition(image(null, null), '50% 25%')).toBe('50% 25%');
    expect(focusPosition(image(0.1, 0.2), '50% 25%')).toBe('10% 20%');
  });

  it('clamps values outside the picture', () => {
    expect(focusPosition(image(-0.2, 1.4))).toBe('0% 100%');
  });

  it('writes the cover style', () => {
    expect(focusStyle(image(0.25, 0.8))).toBe('object-fit: cover; object-position: 25% 80%');
    expect(focusStyle(image(null, null))).toBe('object-fit: cover; object-position: 50% 50%');
  });
});

describe('coverImage', () => {
  it('is the first image, with its focus style', () => {
    const first = image(0.7, 0.3);
    const cover = coverImage([first, image(0.1, 0.1, 'Second')]);
    expect(cover).toEqual({ image: first, alt: 'Band on stage', objectPosition: '70% 30%', style: 'object-fit: cover; object-position: 70% 30%' });
  });

  it('uses the default crop, or the caller\'s, without focus', () => {
    expect(coverImage([image(null, null)])?.objectPosition).toBe('50% 50%');
    expect(coverImage([image(null, null)], 'center top')?.style).toBe('object-fit: cover; object-position: center top');
  });

  it('gives an empty alt when none was given, and null without images', () => {
    expect(coverImage([image(0.5, 0.5, null)])?.alt).toBe('');
    expect(coverImage([])).toBeNull();
    expect(coverImage(null)).toBeNull();
  });
});
