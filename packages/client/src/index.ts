// Everything but the documents (`@event-calendar-api/client/documents`): the runtime and the helpers.
// Each module is free of side effects, so a bundler keeps only what a page imports.
export * from './runtime.js';
export * from './helpers.js';
