/**
 * Days of caller costs kept: they hold client addresses, personal data kept no longer than operators need.
 * A module of its own so that `calendar usage --help` states it without loading the database code.
 */
export const CALLER_COST_DAYS = 30;
