import type { Language, Suggestion } from '../../../packages/client/src/index.js';
import { h } from './dom.js';
import type { WidgetTexts } from './texts.js';

/** What the reader chose in the search box. */
export type SearchChoice =
  /** A suggestion (Enter on it, or a click). */
  | { kind: 'suggestion'; suggestion: Suggestion; label: string }
  /** Enter with no suggestion picked: the words typed, as free text (`searchTerm`). */
  | { kind: 'text'; text: string }
  /** The box was emptied (its clear button, or Escape with no list open). */
  | { kind: 'clear' };

export interface SearchBoxOptions {
  texts: WidgetTexts;
  language: Language;
  /** Unique within the page: the ids `aria-controls` and `aria-activedescendant` point at. */
  idPrefix: string;
  /** Asks the service (the client's `suggest`, under the list's filter); aborted when the reader types on. */
  suggestions: (prefix: string, signal: AbortSignal) => Promise<Suggestion[]>;
  choose: (choice: SearchChoice) => void;
}

/** Pause after the last keystroke before asking: a fast typist's word is one request, not one per letter. */
const DEBOUNCE_MS = 150;

/** A suggestion's label in the widget's language, else the other, else its value. */
export function suggestionLabel(suggestion: Suggestion, language: Language): string {
  const [first, second] = language === 'en' ? [suggestion.label_en, suggestion.label_nb] : [suggestion.label_nb, suggestion.label_en];
  return first || second || suggestion.value;
}

/** A row of the list: one suggestion, or events of one title shown once. */
interface Entry {
  suggestion: Suggestion;
  label: string;
  /** How many of the suggested events have this title (1 for anything but an event). */
  sameTitle: number;
}

/**
 * The rows to show: events that share a title (a series imported as separate events) are one row,
 * where the first of them stood; a reader could not tell them apart by title anyway.
 */
function entriesOf(suggestions: readonly Suggestion[], language: Language): Entry[] {
  const entries: Entry[] = [];
  const byTitle = new Map<string, Entry>();
  for (const suggestion of suggestions) {
    const label = suggestionLabel(suggestion, language);
    if (suggestion.kind !== 'EVENT') {
      entries.push({ suggestion, label, sameTitle: 1 });
      continue;
    }
    const seen = byTitle.get(label);
    if (seen) {
      seen.sameTitle += 1;
      continue;
    }
    const entry = { suggestion, label, sameTitle: 1 };
    byTitle.set(label, entry);
    entries.push(entry);
  }
  return entries;
}

/**
 * A search field with typeahead: the WAI-ARIA combobox pattern with a listbox popup. Focus stays in
 * the field; `aria-activedescendant` names the highlighted suggestion. Arrow keys move through the
 * suggestions (wrapping), Enter takes the highlighted one (or, with none, searches the typed words),
 * Escape closes the list, and with it closed empties the field. Each suggestion shows its kind and
 * how many events it leads to.
 */
export function createSearchBox(options: SearchBoxOptions): { element: HTMLElement; toggle: HTMLButtonElement; show: (text: string) => void } {
  const { texts, language, idPrefix } = options;
  const listId = `${idPrefix}-suggestions`;
  const input = h('input', {
    id: `${idPrefix}-search`,
    class: 'ecw-search-input',
    type: 'text',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': listId,
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    enterkeyhint: 'search',
    placeholder: texts.searchPlaceholder,
  });
  const label = h('label', { class: 'ecw-search-label ecw-visually-hidden', for: input.id }, texts.search);
  const clear = h('button', { type: 'button', class: 'ecw-search-clear', 'aria-label': texts.clearSearch, hidden: true }, '×');
  const listbox = h('ul', { id: listId, class: 'ecw-suggestions', role: 'listbox', 'aria-label': texts.suggestions, hidden: true });
  // How many suggestions there are, said once they come (the list itself is not a live region).
  const announcement = h('p', { class: 'ecw-visually-hidden', role: 'status', 'aria-live': 'polite' });
  const element = h('div', { id: `${idPrefix}-search-box`, class: 'ecw-search' }, label, h('div', { class: 'ecw-search-field' }, input, clear, listbox), announcement);
  // In the narrow layout the box waits behind this button (at the start of the category row), so
  // that a phone's first screen still reaches the events; elsewhere the button is not shown.
  const toggle = h('button', { type: 'button', class: 'ecw-search-toggle', 'aria-label': texts.search, 'aria-expanded': 'false', 'aria-controls': element.id });
  const setOpen = (open: boolean) => {
    element.classList.toggle('ecw-search--open', open);
    toggle.setAttribute('aria-expanded', String(open));
  };
  toggle.addEventListener('click', () => {
    if (toggle.getAttribute('aria-expanded') === 'true') {
      // Closing the box ends its search.
      if (input.value !== '') empty();
      setOpen(false);
      toggle.focus();
    } else {
      setOpen(true);
      input.focus();
    }
  });

  let shown: Entry[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asking: AbortController | undefined;
  /** Whether the list is filtered by something chosen here: emptying the field then ends it. */
  let holding = false;

  const option = (index: number) => listbox.children[index] as HTMLElement | undefined;

  function close(): void {
    listbox.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  function highlight(index: number): void {
    option(active)?.setAttribute('aria-selected', 'false');
    active = index;
    const chosen = option(index);
    if (!chosen) {
      input.removeAttribute('aria-activedescendant');
      return;
    }
    chosen.setAttribute('aria-selected', 'true');
    input.setAttribute('aria-activedescendant', chosen.id);
    chosen.scrollIntoView({ block: 'nearest' });
  }

  function render(suggestions: Suggestion[]): void {
    shown = entriesOf(suggestions, language);
    active = -1;
    input.removeAttribute('aria-activedescendant');
    listbox.replaceChildren(
      ...shown.map((entry, index) =>
        h(
          'li',
          { id: `${listId}-${index}`, class: 'ecw-suggestion', role: 'option', 'aria-selected': 'false', 'data-index': index },
          h(
            'span',
            { class: 'ecw-suggestion-text' },
            h('span', { class: 'ecw-suggestion-label' }, entry.label),
            h('span', { class: 'ecw-suggestion-kind' }, entry.sameTitle > 1 ? texts.eventsNamedSo : texts.suggestionKind[entry.suggestion.kind]),
          ),
          // An event is one event: its count says nothing.
          entry.suggestion.kind === 'EVENT'
            ? null
            : h('span', { class: 'ecw-count ecw-suggestion-hits' }, h('span', { 'aria-hidden': 'true' }, String(entry.suggestion.hits)), h('span', { class: 'ecw-visually-hidden' }, `, ${texts.count(entry.suggestion.hits)}`)),
        ),
      ),
    );
    const open = shown.length > 0;
    listbox.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    announcement.textContent = texts.suggestionCount(shown.length);
  }

  function ask(): void {
    clearTimeout(timer);
    asking?.abort();
    const typed = input.value;
    clear.hidden = typed === '';
    if (typed.trim() === '') {
      render([]);
      announcement.textContent = '';
      // An empty field filters nothing: the list must not stay filtered by what it no longer shows.
      if (holding) {
        holding = false;
        options.choose({ kind: 'clear' });
      }
      return;
    }
    timer = setTimeout(() => {
      const controller = new AbortController();
      asking = controller;
      options.suggestions(typed, controller.signal).then(
        (suggestions) => {
          if (!controller.signal.aborted && document.activeElement === input) render(suggestions);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          // Suggestions are a help, not the search: Enter still searches the typed words.
          console.warn('[calendar] suggestions unavailable', error);
          render([]);
        },
      );
    }, DEBOUNCE_MS);
  }

  function take(index: number): void {
    const entry = shown[index];
    if (!entry) return;
    clearTimeout(timer);
    asking?.abort();
    input.value = entry.label;
    clear.hidden = false;
    close();
    holding = true;
    // Several events of one title (a series imported as separate events): the events of that title.
    options.choose(entry.sameTitle > 1 ? { kind: 'text', text: entry.label } : { kind: 'suggestion', suggestion: entry.suggestion, label: entry.label });
  }

  input.addEventListener('input', ask);
  input.addEventListener('keydown', (event) => {
    const open = !listbox.hidden;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (shown.length === 0) return;
        event.preventDefault();
        if (!open) {
          listbox.hidden = false;
          input.setAttribute('aria-expanded', 'true');
        }
        const step = event.key === 'ArrowDown' ? 1 : -1;
        const from = active < 0 ? (step === 1 ? -1 : shown.length) : active;
        highlight((from + step + shown.length) % shown.length);
        return;
      }
      case 'Enter': {
        event.preventDefault();
        if (open && active >= 0) return take(active);
        const text = input.value.trim();
        if (text === '') return;
        clearTimeout(timer);
        asking?.abort();
        close();
        holding = true;
        options.choose({ kind: 'text', text });
        return;
      }
      case 'Escape': {
        if (open) {
          event.preventDefault();
          close();
        } else if (input.value !== '') {
          event.preventDefault();
          empty();
        }
        return;
      }
    }
  });
  // Leaving the field closes the list; a click on a suggestion does not leave it (see pointerdown).
  input.addEventListener('blur', close);
  input.addEventListener('focus', () => {
    if (shown.length > 0 && input.value.trim() !== '') {
      listbox.hidden = false;
      input.setAttribute('aria-expanded', 'true');
    }
  });
  listbox.addEventListener('pointerdown', (event) => event.preventDefault());
  listbox.addEventListener('click', (event) => {
    const item = (event.target as Element).closest<HTMLElement>('.ecw-suggestion');
    if (item) take(Number(item.dataset['index']));
  });
  listbox.addEventListener('pointermove', (event) => {
    const item = (event.target as Element).closest<HTMLElement>('.ecw-suggestion');
    if (item && Number(item.dataset['index']) !== active) highlight(Number(item.dataset['index']));
  });

  function empty(): void {
    clearTimeout(timer);
    asking?.abort();
    input.value = '';
    clear.hidden = true;
    render([]);
    announcement.textContent = '';
    holding = false;
    options.choose({ kind: 'clear' });
  }
  clear.addEventListener('click', () => {
    empty();
    input.focus();
  });

  return {
    element,
    toggle,
    /** Shows `text` in the field without asking for suggestions (a choice made elsewhere, e.g. a chip). */
    show(text: string) {
      clearTimeout(timer);
      asking?.abort();
      holding = false;
      input.value = text;
      clear.hidden = text === '';
      render([]);
      announcement.textContent = '';
    },
  };
}
