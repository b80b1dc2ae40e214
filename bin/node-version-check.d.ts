// Types of bin/node-version-check.js (plain JavaScript: it runs before tsx is loaded).

/** The line that says this Node is too old and how to get one that fits; null when it fits. */
export function nodeVersionCheck(version?: string, platform?: NodeJS.Platform, arch?: NodeJS.Architecture): string | null;

/** On a Node older than the minimum: that one line on stderr, and exit status 1. */
export function exitOnUnsupportedNode(version?: string): void;
