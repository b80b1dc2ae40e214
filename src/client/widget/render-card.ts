import type { EventsPageQuery } from '../../../packages/client/src/generated/documents.js';
import { LOCALES } from '../../../packages/client/src/language.js';
import {
  eventEnd,
  formatOslo,
  occurrenceKey,
  osloWallClock,
  parseServiceTimestamp,
  type Language,
} from '../../../packages/client/src/index.js';
import { cardMedia } from './card-media.js';
import { cardPrice } from './card-price.js';
import { h } from './dom.js';
import type { WidgetTexts } from './texts.js';

export type CardEvent = NonNullable<EventsPageQuery['events']>['data'][number];

export interface CardContext {
  language: Language;
  texts: WidgetTexts;
  categoryLabel: (id: string) => string;
  /** Ids the licence marks `visible: false`: still valid on events, but not shown to the public. */
  hiddenCategories: ReadonlySet<string>;
}

/** `19:00–21:00`, with the end's date too when it ends on another Oslo day. */
function timeRange(event: CardEvent, locale: string): string {
  const start = parseServiceTimestamp(event.startDate);
  const end = eventEnd(event);
  const from = formatOslo(start, 'time', locale);
  if (!end) return from;
  const sameDay = osloWallClock(start).date === osloWallClock(end).date;
  return `${from}–${sameDay ? '' : `${formatOslo(end, 'shortDate', locale)} `}${formatOslo(end, 'time', locale)}`;
}

/** One event card: cover cropped on its focus point (or the placeholder), Oslo date and time, title, venue, categories, price. */
export function renderCard(event: CardEvent, context: CardContext): HTMLLIElement {
  const { language, texts } = context;
  const locale = LOCALES[language];
  const key = occurrenceKey(event);
  const titleId = `ecw-${key.replace(/[^\w-]/g, '-')}`;
  const title = (language === 'nb' ? event.title_nb ?? event.title_en : event.title_en ?? event.title_nb) ?? texts.untitled;
  const price = cardPrice(event, language);
  const shownCategories = event.categories.filter((id) => !context.hiddenCategories.has(id));
  const start = parseServiceTimestamp(event.startDate);

  return h(
    'li',
    { class: 'ecw-card', 'data-occurrence': key, 'data-start': event.startDate },
    h(
      'article',
      { 'aria-labelledby': titleId },
      cardMedia(event.images, start, locale),
      h(
        'div',
        { class: 'ecw-body' },
        h(
          'p',
          { class: 'ecw-when' },
          h('time', { class: 'ecw-date', datetime: start.toISOString() }, formatOslo(start, 'shortDate', locale)),
          h('span', { class: 'ecw-time' }, timeRange(event, locale)),
        ),
        h('h3', { class: 'ecw-title', id: titleId }, h('a', { href: event.eventLink }, title)),
        h('p', { class: 'ecw-venue' }, event.mode === 'online' ? texts.online : event.venue?.name ?? ''),
        shownCategories.length > 0 &&
          h('ul', { class: 'ecw-tags', 'aria-label': texts.categories }, ...shownCategories.map((id) => h('li', {}, context.categoryLabel(id)))),
        h(
          'div',
          { class: 'ecw-foot' },
          h('span', { class: 'ecw-price' }, price ?? ''),
          event.eventCancelled && h('span', { class: 'ecw-badge' }, texts.cancelled),
          !event.eventCancelled && event.eventSoldOut && h('span', { class: 'ecw-badge ecw-badge--soldout' }, texts.soldOut),
        ),
      ),
    ),
  );
}
