// Runs a TypeScript file of bench/ through tsx's loader, as bin/calendar.js runs the service's sources
// (`tsconfig: false` for the same reason, given there).
import { pathToFileURL } from 'node:url';
const { register } = await import('tsx/esm/api');
register({ tsconfig: false });
await import(pathToFileURL(process.argv[2]).href);
