// The API's errors live in src/api-error.ts, below every layer that raises them (the read model
// answers 503 too). This re-export is for the files still importing it from here (src/http/graphql-route.ts,
// src/http/execute-graphql.ts, src/plugins/use-logged-masked-errors.ts); delete it once they import from there.
export { serviceUnavailable } from '../api-error.js';
