/**
 * The order in which the checks of one record are reported (0 is the record's own shape): the
 * `check` of a ProblemPlace, so that problems found late (at the end of the file) still sort into
 * their place among the record's others.
 */
export const CHECK_ORDER = {
  duplicateId: 1,
  categoryRetiredOrParent: 2,
  categorySlugNb: 3,
  categorySlugEn: 4,
  replacement: 2,
  slug: 2,
  eventCategory: 3,
  eventOrganizer: 4,
  eventVenue: 5,
  dateVenue: 6,
  superEvent: 7,
  duplicateKey: 1,
} as const;
