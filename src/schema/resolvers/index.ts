import type { Resolvers } from '../../../generated/resolvers-types.js';
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

export const resolvers: Resolvers = {
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
};
