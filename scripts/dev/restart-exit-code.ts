/** The dev host exits with this to be started again by scripts/dev.mjs (a change the running service cannot take in). */
export const RESTART_EXIT_CODE = 75;
