/** What the widget needs of an event to describe it to search engines: the API's `jsonLd`. */
export interface StructuredEvent {
  id: string;
  jsonLd?: string | null | undefined;
}

export interface StructuredData {
  /** Replaces what this widget wrote before with one script per event that has JSON-LD (none for `[]`). */
  show(events: readonly StructuredEvent[]): void;
}

/**
 * Keeps one `<script type="application/ld+json">` per shown event in the page's head, where search
 * engines read events of a rendered page (Google runs the page's scripts and reads JSON-LD added
 * to the DOM). Each widget tracks its own scripts, so a re-render replaces exactly its set and two
 * widgets on a page leave each other's alone.
 */
export function structuredData(document: Document): StructuredData {
  let written: HTMLScriptElement[] = [];
  let blocked = false;
  return {
    show(events) {
      for (const script of written) script.remove();
      written = [];
      if (blocked) return;
      try {
        written = events.flatMap((event) => {
          if (!event.jsonLd) return []; // null: Google's required properties could not be filled
          const script = document.createElement('script');
          script.type = 'application/ld+json';
          script.dataset['calendarEvent'] = event.id;
          // Text, never markup: the API already writes `<` as \u003c, so the text cannot close the element.
          script.textContent = event.jsonLd;
          return [script];
        });
      } catch (error) {
        // A page enforcing Trusted Types refuses script text from plain strings; the cards matter more.
        blocked = true;
        written = [];
        console.warn('[calendar] structured data not written:', error);
        return;
      }
      (document.head ?? document.documentElement).append(...written);
    },
  };
}
