import { describe, expect, it } from 'vitest';
import { demoPicturePath, parseDemoPicturePath, resolveDemoPictureUrl } from '../../src/demo/demo-picture-path.js';
import { drawDemoPicture } from '../../src/demo/draw-demo-picture.js';

describe('demo picture paths', () => {
  it('name one picture each, read back exactly', () => {
    const focused = { motif: 'food_drinks', variant: 42, width: 1600, height: 900, focusX: 78, focusY: 0 } as const;
    expect(demoPicturePath(focused)).toBe('/demo-pictures/food_drinks/42-1600x900-78-0.svg');
    expect(parseDemoPicturePath(demoPicturePath(focused))).toEqual(focused);
    const plain = { ...focused, focusX: null, focusY: null };
    expect(demoPicturePath(plain)).toBe('/demo-pictures/food_drinks/42-1600x900.svg');
    expect(parseDemoPicturePath(demoPicturePath(plain))).toEqual(plain);
  });

  it('draws the same bytes for the same path, with the size it names', () => {
    const picture = parseDemoPicturePath('/demo-pictures/concert/7-800x450-30-60.svg')!;
    const svg = drawDemoPicture(picture);
    expect(drawDemoPicture(picture)).toBe(svg);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="800" height="450" viewBox="0 0 800 450">/);
    expect(svg).toContain('<circle class="focus" cx="240" cy="270"');
    expect(drawDemoPicture({ ...picture, variant: 8 })).not.toBe(svg);
  });

  it('resolves only demo paths against the public base URL', () => {
    expect(resolveDemoPictureUrl('/demo-pictures/concert/7-800x450.svg', 'https://api.example.no/')).toBe('https://api.example.no/demo-pictures/concert/7-800x450.svg');
    expect(resolveDemoPictureUrl('/demo-pictures/concert/7-800x450.svg', 'https://example.no/kalender')).toBe('https://example.no/kalender/demo-pictures/concert/7-800x450.svg');
    for (const stored of ['https://cdn.example.no/a.jpg', '/bilder/a.jpg', 'a.jpg', 'demo-pictures/concert/7-800x450.svg']) {
      expect(resolveDemoPictureUrl(stored, 'https://api.example.no')).toBe(stored);
    }
    // No base known (a resolver run outside the HTTP service): the path as stored.
    expect(resolveDemoPictureUrl('/demo-pictures/concert/7-800x450.svg', undefined)).toBe('/demo-pictures/concert/7-800x450.svg');
  });
});
