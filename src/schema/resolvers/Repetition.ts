import type { RepetitionResolvers } from '../../../generated/resolvers-types.js';
import { formatOsloTimestamp } from '../../domain/oslo-time.js';

export const Repetition = {
  startDate: (o) => formatOsloTimestamp(new Date(o.start_at)),
  endDate: (o) => formatOsloTimestamp(new Date(o.end_at ?? o.start_at)),
  startTime: (o) => o.start_time,
  duration: (o) => o.duration,
  venue: (o, _a, ctx) => (o.venue_id ? ctx.loaders.venue.load(o.venue_id) : null),
  ticketsURL: (o) => o.tickets_url,
  eventCancelled: (o) => o.cancelled,
  eventSoldOut: (o) => o.sold_out,
  // Null: "the event's prices apply".
  prices: (o) => o.prices,
} satisfies RepetitionResolvers;
