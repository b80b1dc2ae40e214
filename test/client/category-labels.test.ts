import { describe, expect, it } from 'vitest';
import { categoryLabeler } from '../../packages/client/src/index.js';

const categories = [
  {
    id: 'CONCERT',
    name_nb: 'Konsert',
    name_en: 'Concert',
    subCategories: [{ id: 'JAZZ', name_nb: 'Jazz', name_en: 'Jazz club' }],
  },
  { id: 'THEATER', name_nb: 'Teater / show', name_en: 'Theater / show', subCategories: [] },
];

describe('categoryLabeler', () => {
  it('labels ids from the licence\'s own category list, sub-categories included', () => {
    const label = categoryLabeler(categories);
    expect(['CONCERT', 'JAZZ', 'THEATER'].map(label)).toEqual(['Konsert', 'Jazz', 'Teater / show']);
    expect(categoryLabeler(categories, 'en')('JAZZ')).toBe('Jazz club');
  });

  it('shows an id the list does not know as itself', () => {
    expect(categoryLabeler(categories)('RETIRED_ID')).toBe('RETIRED_ID');
    expect(categoryLabeler(null)('CONCERT')).toBe('CONCERT');
  });
});
