import {
  CategoriesDocument,
  EventsPageDocument,
  SuggestedEventLinkDocument,
  type CategoriesQuery,
  type EventsPageQueryVariables,
  type Filter,
} from '../../../packages/client/src/generated/documents.js';
import { categoryLabeler, createCalendarClient, suggest, suggestionFilter, type Language } from '../../../packages/client/src/index.js';
import { h } from './dom.js';
import { feedUrl } from './feed-link.js';
import { readerClockDiffers } from './reader-zone.js';
import { renderCard } from './render-card.js';
import { createSearchBox, type SearchChoice } from './search-box.js';
import { structuredData } from './structured-data.js';
import { injectStyles, NARROW_WIDTH_PX } from './styles.js';
import { TEXTS } from './texts.js';

export interface WidgetOptions {
  /** The GraphQL endpoint. */
  endpoint: string;
  apiKey?: string | undefined;
  /** @default 'nb' */
  language?: Language | undefined;
  /** @default 6 */
  pageSize?: number | undefined;
  /** Heading above the list; empty for none. */
  heading?: string | undefined;
  /**
   * Writes each shown event's schema.org JSON-LD (`Event.jsonLd`) into the page's head, for search
   * engines' event results; false: none is asked for or written. @default true
   */
  structuredData?: boolean | undefined;
}

/** Numbers each widget of a page, for its elements' ids. */
let widgetsMounted = 0;

/**
 * Mounts the event list into `root`: a search box with typeahead, category chips, cards and paging,
 * all through the typed client. Plain DOM, so any page can embed it without a framework.
 */
export function mountCalendarWidget(root: HTMLElement, options: WidgetOptions): void {
  const language = options.language ?? 'nb';
  const texts = TEXTS[language];
  const pageSize = options.pageSize ?? 6;
  const withJsonLd = options.structuredData ?? true;
  const jsonLd = structuredData(root.ownerDocument);
  injectStyles(root.ownerDocument);

  const client = createCalendarClient({
    endpoint: options.endpoint,
    apiKey: options.apiKey,
    // Spec: X-Page-Url is the embedding page's full URL, starting with https.
    pageUrl: location.protocol === 'https:' ? location.href : undefined,
    onNotice: (notice) => console.info(`[calendar] ${notice}`),
  });

  let categories: NonNullable<CategoriesQuery['categories']> = [];
  let label = categoryLabeler(categories, language);
  let hiddenCategories = new Set<string>();
  let category: string | null = null;
  /** What the search box chose: a suggestion's condition, or the words typed (`searchTerm`). */
  let searched: Filter | null = null;
  let page = 0;
  let inFlight: AbortController | null = null;

  const headingText = options.heading ?? texts.heading;
  const filters = h('div', { class: 'ecw-filters', role: 'group', 'aria-label': texts.filter, hidden: true });
  const status = h('p', { class: 'ecw-status', role: 'status', 'aria-live': 'polite' }, texts.loading);
  // Not in the live status: said once, not announced again with every page.
  const zoneNote = h('p', { class: 'ecw-zone', hidden: true }, texts.osloTime);
  // "Subscribe" to what the list shows: the chosen category's feed, in the widget's language.
  const subscribe = h('a', { class: 'ecw-subscribe', href: feedUrl(options.endpoint, null, language) }, texts.subscribe);
  const retry = h('button', { type: 'button', class: 'ecw-button' }, texts.retry);
  const alert = h('div', { class: 'ecw-alert', role: 'alert', hidden: true }, h('span', {}, texts.failed), retry);
  const list = h('ul', { class: 'ecw-list', role: 'list', tabindex: -1, 'aria-busy': true, 'aria-label': headingText || texts.heading });
  const previous = h('button', { type: 'button', class: 'ecw-button', disabled: true }, `← ${texts.previous}`);
  const next = h('button', { type: 'button', class: 'ecw-button', disabled: true }, `${texts.next} →`);
  const pageLabel = h('span', { class: 'ecw-page' });
  const pager = h('nav', { class: 'ecw-pager', 'aria-label': texts.pages, hidden: true }, previous, pageLabel, next);

  const search = createSearchBox({
    texts,
    language,
    idPrefix: `ecw-${(widgetsMounted += 1)}`,
    // Counted under the chosen category: each count is what the list shows once it is taken.
    suggestions: (prefix, signal) => suggest(client, prefix, { filter: category ? { categories: [category] } : null, signal }),
    choose: (choice) => void chooseSearch(choice),
  });

  root.classList.add('ecw');
  // The widget's own width decides its layout, not the window's: embedded in a sidebar it is narrow
  // on a wide screen. (A container query would do it in CSS, but it needs a box whose width never
  // comes from its content, which a host's flex or grid layout does not promise.)
  const fit = (width: number) => root.classList.toggle('ecw--narrow', width > 0 && width < NARROW_WIDTH_PX);
  fit(root.getBoundingClientRect().width);
  if (typeof ResizeObserver === 'function') new ResizeObserver((entries) => fit(entries[0]?.contentRect.width ?? 0)).observe(root);
  root.replaceChildren(...[headingText ? h('h2', { class: 'ecw-heading' }, headingText) : null, search.element, h('div', { class: 'ecw-bar' }, search.toggle, filters), h('div', { class: 'ecw-meta' }, status, zoneNote, subscribe), alert, list, pager].filter((node) => node !== null));

  function pressChip(id: string | null): void {
    for (const chip of Array.from(filters.querySelectorAll<HTMLElement>('.ecw-chip'))) chip.setAttribute('aria-pressed', String((chip.dataset['category'] || null) === id));
  }

  async function chooseSearch(choice: SearchChoice): Promise<void> {
    if (choice.kind === 'suggestion' && choice.suggestion.kind === 'EVENT') {
      // One event: its own page, as its card's link.
      try {
        const { eventBySlug } = await client.request(SuggestedEventLinkDocument, { slug: choice.suggestion.value });
        if (eventBySlug) return location.assign(eventBySlug.eventLink);
      } catch (error) {
        console.error('[calendar]', error);
      }
      searched = { searchTerm: choice.label };
    } else if (choice.kind === 'suggestion' && choice.suggestion.kind === 'CATEGORY') {
      // A category is a chip: pressed there, not held in the field (nor anything the field held before).
      category = choice.suggestion.value;
      searched = null;
      pressChip(category);
      search.show('');
    } else if (choice.kind === 'suggestion') {
      searched = suggestionFilter(choice.suggestion);
    } else if (choice.kind === 'text') {
      searched = { searchTerm: choice.text };
    } else {
      searched = null;
    }
    page = 0;
    await load();
  }

  function renderChips(facets: ReadonlyArray<{ id: string; hits: number }>): void {
    // Chips for visible categories that have upcoming events, in the licence's own order.
    const hits = new Map(facets.map((facet) => [facet.id, facet.hits]));
    const chip = (id: string | null, text: string, count?: number) =>
      h(
        'button',
        { type: 'button', class: 'ecw-chip', 'aria-pressed': String(category === id), 'data-category': id ?? '' },
        text,
        count === undefined ? null : h('span', { class: 'ecw-count', 'aria-hidden': 'true' }, String(count)),
      );
    const shown = categories.filter((entry) => entry.visible && (hits.get(entry.id) ?? 0) > 0);
    filters.replaceChildren(chip(null, texts.all), ...shown.map((entry) => chip(entry.id, label(entry.id), hits.get(entry.id))));
    filters.hidden = shown.length === 0;
  }

  async function load(focusList = false): Promise<void> {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    list.setAttribute('aria-busy', 'true');
    alert.hidden = true;
    const filter: Filter = { ...(category ? { categories: [category] } : {}), ...searched };
    const variables: EventsPageQueryVariables = {
      page,
      pageSize,
      ...(Object.keys(filter).length > 0 ? { filter } : {}),
      // Left out when off, so the request is the same (and cached alike) as any other page of cards.
      ...(withJsonLd ? { withJsonLd, jsonLdLan: language } : {}),
    };
    subscribe.href = feedUrl(options.endpoint, variables.filter, language);
    try {
      const { events } = await client.request(EventsPageDocument, variables, { signal: controller.signal });
      if (controller.signal.aborted) return;
      const total = events?.totalCount ?? 0;
      const pages = Math.max(1, events?.pageInfo.totalPages ?? 1);
      if (!category && !searched && filters.childElementCount === 0) renderChips(events?.categories ?? []);
      list.replaceChildren(...(events?.data ?? []).map((event) => renderCard(event, { language, texts, categoryLabel: label, hiddenCategories })));
      if (withJsonLd) jsonLd.show(events?.data ?? []);
      zoneNote.hidden = !readerClockDiffers((events?.data ?? []).flatMap((event) => (event.endDate ? [event.startDate, event.endDate] : [event.startDate])));
      status.textContent = total === 0 ? texts.empty : `${texts.count(total)} · ${texts.page(page + 1, pages)}`;
      pageLabel.textContent = texts.page(page + 1, pages);
      previous.disabled = page === 0;
      next.disabled = !events?.hasMore;
      pager.hidden = pages <= 1;
      if (focusList) list.focus({ preventScroll: true });
    } catch (error) {
      if (controller.signal.aborted) return;
      console.error('[calendar]', error);
      status.textContent = '';
      alert.hidden = false;
    } finally {
      if (inFlight === controller) list.setAttribute('aria-busy', 'false');
    }
  }

  filters.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('.ecw-chip');
    if (!button) return;
    category = button.dataset['category'] || null;
    page = 0;
    pressChip(category);
    // On a phone the chips are one scrolling row: keep the chosen one in sight.
    button.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    void load();
  });
  // Arrow keys, Home and End move between chips, as in a toolbar; Tab still visits each one.
  filters.addEventListener('keydown', (event) => {
    const chips = Array.from(filters.querySelectorAll<HTMLButtonElement>('.ecw-chip'));
    const at = chips.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: chips.length - 1 }[event.key];
    const target = to === undefined ? undefined : chips[Math.max(0, Math.min(chips.length - 1, to))];
    if (!target) return;
    event.preventDefault();
    target.focus();
  });
  // A chip reached by keyboard (Tab or arrows) is brought wholly into the scrolling row's view.
  filters.addEventListener('focusin', (event) => {
    (event.target as Element).scrollIntoView({ block: 'nearest', inline: 'nearest' });
  });
  previous.addEventListener('click', () => {
    page = Math.max(0, page - 1);
    void load(true);
  });
  next.addEventListener('click', () => {
    page += 1;
    void load(true);
  });
  retry.addEventListener('click', () => void start());

  async function start(): Promise<void> {
    // Labels first: events carry category ids, and the ids are this licence's own.
    try {
      categories = (await client.request(CategoriesDocument)).categories ?? [];
      label = categoryLabeler(categories, language);
      hiddenCategories = new Set(categories.flatMap((entry) => [entry, ...entry.subCategories]).filter((entry) => !entry.visible).map((entry) => entry.id));
    } catch (error) {
      console.warn('[calendar] category labels unavailable; showing ids', error);
    }
    await load();
  }

  void start();
}
