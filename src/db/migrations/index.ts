import type { Migration } from 'kysely/migration';
import * as calendarCore from './2026-11-21-0001-calendar-core.js';
import * as unpublishedEventsIndex from './2026-11-21-0002-unpublished-events-index.js';
import * as searchWords from './2026-11-21-0003-search-words.js';
import * as nodeWalk from './2026-11-21-0004-node-walk.js';
import * as eventOrderIndex from './2026-11-21-0005-event-order-index.js';
import * as dataVersionNotify from './2026-11-25-0006-data-version-notify.js';
import * as eventChanges from './2026-11-25-0007-event-changes.js';
import * as dataVersionPurges from './2026-11-28-0008-data-version-purges.js';
import * as callerCosts from './2026-11-28-0009-caller-costs.js';
import * as deprecatedUses from './2026-11-28-0010-deprecated-uses.js';

/** Every migration, by its timestamped name. Listed statically: no file scanning at run time, from src/ or dist/. */
export const migrations: Record<string, Migration> = {
  '2026-11-21-0001-calendar-core': calendarCore,
  '2026-11-21-0002-unpublished-events-index': unpublishedEventsIndex,
  '2026-11-21-0003-search-words': searchWords,
  '2026-11-21-0004-node-walk': nodeWalk,
  '2026-11-21-0005-event-order-index': eventOrderIndex,
  '2026-11-25-0006-data-version-notify': dataVersionNotify,
  '2026-11-25-0007-event-changes': eventChanges,
  '2026-11-28-0008-data-version-purges': dataVersionPurges,
  '2026-11-28-0009-caller-costs': callerCosts,
  '2026-11-28-0010-deprecated-uses': deprecatedUses,
};

/** The newest migration this code needs: a schema whose newest applied migration sorts before it is behind. */
export const LATEST_MIGRATION = Object.keys(migrations).sort().at(-1) ?? '';
