import { DEMO_PICTURES_PREFIX } from './demo/demo-picture-path.js';

// The service's HTTP routes, written once: the server dispatches on them (src/http/server.ts), the
// metrics label requests by them, traces name their spans after them, and the access log writes the
// probes at debug. Below HTTP and telemetry, which both read it; the handlers stay in src/http.

/** A route's name: what the server dispatches on, and the `route` label of the request metrics. */
export type RouteName = 'graphql' | 'schema' | 'health' | 'ready' | 'metrics' | 'sandbox' | 'widget' | 'feed' | 'demo_picture';

export interface Route {
  name: RouteName;
  /** The span name's and `http.route`'s path: the path itself, or the template of a family of paths. */
  template: string;
  /** Polled every few seconds by orchestrators and Prometheus: the access log writes it at debug, so it does not drown the requests. */
  probe: boolean;
}

/** The SDL the service runs, published. */
export const SCHEMA_FILE_PATH = '/schema.graphql';
/** The iCalendar feed of an `events` filter (docs/feeds.md). */
export const ICS_FEED_PATH = '/events.ics';

const route = (name: RouteName, template: string, probe = false): Route => ({ name, template, probe });

/** Routes of one path. The spec names `/graphQL`; the lower-case spelling is accepted too. */
const BY_PATH = new Map<string, Route>(
  [
    route('graphql', '/graphQL'),
    route('graphql', '/graphql'),
    route('schema', SCHEMA_FILE_PATH),
    route('health', '/health', true),
    route('ready', '/ready', true),
    route('metrics', '/metrics', true),
    route('widget', '/widget'),
    route('feed', ICS_FEED_PATH),
  ].map((r) => [r.template, r]),
);

/** Routes of a family of paths, by prefix (the sandbox's versioned assets, the widget's files, the demo's pictures). */
const BY_PREFIX: readonly (readonly [prefix: string, route: Route])[] = [
  ['/sandbox/', route('sandbox', '/sandbox/{asset}')],
  ['/widget/', route('widget', '/widget/{asset}')],
  [DEMO_PICTURES_PREFIX, route('demo_picture', `${DEMO_PICTURES_PREFIX}{picture}`)],
];

/** The route a path (without its query string) belongs to; undefined for any other path (a 404, whose path is never a label or span name: their number has no bound). */
export function routeOf(path: string): Route | undefined {
  const exact = BY_PATH.get(path);
  if (exact) return exact;
  for (const [prefix, prefixed] of BY_PREFIX) if (path.startsWith(prefix)) return prefixed;
  return undefined;
}
