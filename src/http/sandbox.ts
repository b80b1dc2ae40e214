import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';

const require = createRequire(import.meta.url);

function packageFile(pkg: string, file: string): { path: string; version: string } {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const { version } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
  return { path: join(dirname(manifestPath), file), version };
}

interface Asset {
  type: string;
  load: () => Buffer;
}

/**
 * The sandbox is served entirely from our origin (no CDN: it works offline and under a strict
 * Content-Security-Policy): GraphiQL's browser build and React's UMD files from node_modules.
 * Their versions are part of the URL, so the files can be cached as immutable. They are optional
 * dependencies, found when the sandbox is first asked for: an installation without them
 * (`--omit=optional`) serves the API all the same, and the page says what is missing.
 */
interface SandboxFiles {
  prefix: string;
  page: string;
  assets: Record<string, Asset>;
}

const SANDBOX_PACKAGES = ['graphiql', 'react', 'react-dom'];

function findSandboxFiles(): SandboxFiles | null {
  try {
    const graphiql = packageFile('graphiql', 'graphiql.min.js');
    const graphiqlCss = packageFile('graphiql', 'graphiql.min.css');
    const react = packageFile('react', 'umd/react.production.min.js');
    const reactDom = packageFile('react-dom', 'umd/react-dom.production.min.js');
    const prefix = `/sandbox/${graphiql.version}-${react.version}/`;
    const assets: Record<string, Asset> = {
      'graphiql.min.js': { type: 'text/javascript; charset=utf-8', load: fromFile(graphiql.path) },
      'graphiql.min.css': { type: 'text/css; charset=utf-8', load: fromFile(graphiqlCss.path) },
      'react.production.min.js': { type: 'text/javascript; charset=utf-8', load: fromFile(react.path) },
      'react-dom.production.min.js': { type: 'text/javascript; charset=utf-8', load: fromFile(reactDom.path) },
      'sandbox.js': { type: 'text/javascript; charset=utf-8', load: () => Buffer.from(BOOT_SCRIPT) },
    };
    return { prefix, page: sandboxPage(prefix), assets };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'MODULE_NOT_FOUND') return null;
    throw error;
  }
}

// Process-wide: the packages installed do not change while the process runs.
let sandboxFiles: SandboxFiles | null | undefined;
const installedSandbox = (): SandboxFiles | null => (sandboxFiles === undefined ? (sandboxFiles = findSandboxFiles()) : sandboxFiles);

/** At this width and below, the sandbox stacks its panes. */
const PHONE_MAX_WIDTH_PX = 700;

/** Runs in the page: GraphiQL against this same URL, prefilled from `?query=` when given. */
const BOOT_SCRIPT = `(function () {
  var container = document.getElementById('graphiql');
  var params = new URLSearchParams(location.search);
  // The subscribe link follows the "filter" variable: the same filter as a feed (docs/feeds.md). Its
  // href is only set here: the page itself names nothing outside the sandbox's own files.
  var subscribe = document.getElementById('subscribe-feed');
  function followFilter(variables) {
    var filter = null;
    try { filter = (JSON.parse(variables || '{}') || {}).filter; } catch (e) { return; }
    var url = new URL('/events.ics', location.href);
    Object.keys(filter && typeof filter === 'object' ? filter : {}).forEach(function (name) {
      var value = filter[name];
      if (value == null || name === 'groupRepetitionsByDay' || name === 'sortBy') return;
      if (Array.isArray(value)) { if (value.length > 0) url.searchParams.set(name, value.join(',')); }
      else if (typeof value === 'object') url.searchParams.set(name, [value.latitude, value.longitude, value.radiusKm].join(','));
      else url.searchParams.set(name, String(value));
    });
    subscribe.href = 'webcal://' + url.host + url.pathname + url.search;
  }
  followFilter(params.get('variables'));
  var fetcher = GraphiQL.createFetcher({ url: location.origin + location.pathname });
  ReactDOM.createRoot(container).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: container.getAttribute('data-default-query'),
      query: params.get('query') || undefined,
      variables: params.get('variables') || undefined,
      // On a phone the variables pane would take half the editor: closed until asked for.
      defaultEditorToolsVisibility: !window.matchMedia('(max-width: ${PHONE_MAX_WIDTH_PX}px)').matches,
      shouldPersistHeaders: false,
      onEditVariables: followFilter,
    }),
  );
})();
`;

const fromFile = (path: string) => () => readFileSync(path);

/** The example the sandbox opens with: it runs as it is. */
export const EXAMPLE_QUERY = `# Event calendar API: a read-only GraphQL endpoint.
# Press the run button (or Ctrl-Enter) to run this query.
# The Docs panel (book icon, top left) describes every type, field and argument.
query UpcomingEvents {
  events(pageSize: 5) {
    totalCount
    data {
      id
      title_nb
      startDate
      venue {
        name
      }
    }
  }
}
`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const sandboxPage = (prefix: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Event calendar API · sandbox</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${prefix}graphiql.min.css">
<style>
html, body, #graphiql { height: 100%; margin: 0; }
#subscribe-feed { position: fixed; right: 12px; bottom: 8px; z-index: 10; font: 12px/1.4 system-ui, sans-serif; color: inherit; opacity: .75; }
/* A phone: GraphiQL's three columns leave the result a few characters wide. Stacked instead: the
   tool buttons in a row on top, the editor above the result (each half the height), an open docs
   pane above them, no drag bars (the splits are fixed). */
@media (max-width: ${PHONE_MAX_WIDTH_PX}px) {
  .graphiql-container { flex-direction: column; }
  .graphiql-container .graphiql-sidebar { flex-direction: row; width: auto; padding: 4px 8px; gap: 4px; }
  .graphiql-container .graphiql-sidebar .graphiql-sidebar-section { flex-direction: row; gap: 4px; }
  .graphiql-container .graphiql-sidebar button:not(:first-child) { margin-top: 0; }
  .graphiql-container .graphiql-main { flex-direction: column; min-height: 0; }
  .graphiql-container .graphiql-main > div:has(> .graphiql-plugin) { flex: 1 1 0% !important; min-width: 0 !important; }
  .graphiql-container .graphiql-horizontal-drag-bar { display: none !important; }
  .graphiql-container .graphiql-sessions { margin: 0 8px 8px; min-height: 0; }
  .graphiql-container .graphiql-session { flex-direction: column; padding: 0 4px; min-height: 0; }
  .graphiql-container .graphiql-session > div { flex: 1 1 0% !important; min-height: 0; min-width: 0; }
  .graphiql-container .graphiql-logo { display: none; }
  .graphiql-container .graphiql-response { padding-top: 8px; }
}
</style>
</head>
<body>
<a id="subscribe-feed" title="The events filter of the variables as an iCalendar feed">Subscribe (iCalendar feed)</a>
<div id="graphiql" data-default-query="${escapeHtml(EXAMPLE_QUERY)}">Loading the sandbox…</div>
<script src="${prefix}react.production.min.js"></script>
<script src="${prefix}react-dom.production.min.js"></script>
<script src="${prefix}graphiql.min.js"></script>
<script src="${prefix}sandbox.js"></script>
</body>
</html>
`;

/** Everything from our origin; inline styles are needed by React and CodeMirror. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** What a browser is shown where the sandbox's optional packages were left out of the installation. */
const NOT_INSTALLED_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Event calendar API</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem">
<h1>Event calendar API</h1>
<p>This is a GraphQL endpoint: send queries with <code>POST</code> and <code>Content-Type: application/json</code>.
The interactive sandbox is not installed on this server (its browser files come from the optional packages
${SANDBOX_PACKAGES.map((name) => `<code>${name}</code>`).join(', ')}).</p>
</body>
</html>
`;

/** Spec: "Sandbox: same URL, opened by a request that accepts HTML." */
export function sendSandboxPage(res: ServerResponse): void {
  const page = installedSandbox()?.page ?? NOT_INSTALLED_PAGE;
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(page),
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'Cache-Control': 'no-cache',
    Vary: 'Accept',
  });
  res.end(page);
}

/** Process-wide: the sandbox's files (from node_modules, the same for every server), read and compressed once. */
const loaded = new Map<string, { raw: Buffer; gzip: Buffer }>();

/** Serves one sandbox file; false when the path names none (the caller answers 404). */
export function sendSandboxAsset(req: IncomingMessage, res: ServerResponse, path: string): boolean {
  const sandbox = installedSandbox();
  if (!sandbox || !path.startsWith(sandbox.prefix)) return false;
  const name = path.slice(sandbox.prefix.length);
  const asset = Object.hasOwn(sandbox.assets, name) ? sandbox.assets[name] : undefined;
  if (!asset) return false;
  let bytes = loaded.get(name);
  if (!bytes) {
    // Compressed once, on first use: GraphiQL is ~1 MB raw and ~300 KB gzipped.
    const raw = asset.load();
    bytes = { raw, gzip: gzipSync(raw) };
    loaded.set(name, bytes);
  }
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? bytes.gzip : bytes.raw;
  res.writeHead(200, {
    'Content-Type': asset.type,
    'Content-Length': body.length,
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    'Cache-Control': 'public, max-age=31536000, immutable',
    Vary: 'Accept-Encoding',
  });
  res.end(body);
  return true;
}
