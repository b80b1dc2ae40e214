import type { Language } from '../../../packages/client/src/index.js';
import { mountCalendarWidget } from './mount-calendar-widget.js';

/**
 * The embeddable widget: `<div data-calendar-widget></div>` plus
 * `<script type="module" src="https://<service>/widget/widget.js"></script>`. Settings come from
 * data attributes: `data-endpoint`, `data-api-key`, `data-lang` (`nb`/`en`), `data-page-size`,
 * `data-heading`, `data-structured-data` (`false`: no JSON-LD in the page).
 */
// Default endpoint: the service that served this script, so a cross-origin embed needs no setting.
const defaultEndpoint = new URL('../graphQL', import.meta.url).href;

for (const root of Array.from(document.querySelectorAll<HTMLElement>('[data-calendar-widget]'))) {
  const data = root.dataset;
  const pageSize = Number(data['pageSize']);
  mountCalendarWidget(root, {
    endpoint: data['endpoint'] || defaultEndpoint,
    apiKey: data['apiKey'] || undefined,
    language: (data['lang'] === 'en' ? 'en' : 'nb') satisfies Language,
    pageSize: Number.isInteger(pageSize) && pageSize > 0 ? pageSize : undefined,
    heading: data['heading'],
    structuredData: data['structuredData'] !== 'false',
  });
}
