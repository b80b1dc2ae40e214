/** The demo calendar's size when nobody names one: `calendar seed`, and the embedded database's first start. */
export const DEFAULT_DEMO_EVENTS = 2000;

/** The largest demo calendar `calendar seed` and DEMO_EVENTS accept. */
export const MAX_DEMO_EVENTS = 1_000_000;
