import type { Resolvers } from '../../../generated/resolvers-types.js';
import type { FieldProblems, NoFieldProblems } from '../field-coverage.js';
import { events } from './Query/events.js';
import { changes } from './Query/changes.js';
import {
  allUpcomingEventsInArea,
  allUpcomingSuperEvents,
  eventByID,
  eventBySlug,
  eventByTitle,
  eventsBySlugs,
} from './Query/event-lookups.js';
import { categories, organizers, venues } from './Query/catalogues.js';
import { suggest } from './Query/suggest.js';
import { Event } from './Event.js';
import { EventConnection } from './EventConnection.js';
import { Repetition } from './Repetition.js';
import { Price } from './Price.js';
import { Image } from './Image.js';
import { Venue, VenueFacet } from './Venue.js';
import { Category, CategoryFacet } from './Category.js';

export const resolvers = {
  Query: { events, eventByID, eventBySlug, eventsBySlugs, eventByTitle, allUpcomingSuperEvents, allUpcomingEventsInArea, categories, venues, organizers, changes, suggest },
  Event,
  EventConnection,
  Repetition,
  Price,
  Image,
  Venue,
  VenueFacet,
  Category,
  CategoryFacet,
} satisfies Resolvers;

// Every field of every object type is answered: by a resolver above, or by its model's property of the
// same name and of the schema's type. A field nothing answers fails typecheck here, named `Type.field`.
type _EveryFieldAnswered = NoFieldProblems<FieldProblems<typeof resolvers>>;
