import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { sendRequestError } from './respond.js';

/**
 * The widget's script, bundled for browsers by `npm run build` (scripts/build.mjs) from
 * `src/client/widget/main.ts`. The same path from `src/http/` (tests) and `dist/http/` (production).
 */
const WIDGET_BUNDLE = new URL('../../dist/widget/widget.js', import.meta.url);

interface WidgetScript {
  code: Buffer;
  etag: string;
}

// Process-wide: one file, read on first request (the widget changes only with a deploy).
let script: WidgetScript | null = null;

function widgetScript(): WidgetScript {
  if (script) return script;
  const code = readFileSync(WIDGET_BUNDLE);
  script = { code, etag: `"${createHash('sha256').update(code).digest('base64url').slice(0, 27)}"` };
  return script;
}

const PAGE = `<!doctype html>
<html lang="nb">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hva skjer – arrangementskalender</title>
<style>
  body { margin: 0; background: #f6f8fb; }
  main { max-width: 72rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
  .intro { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #566270; margin: 0 0 1.5rem; }
  h1 { font: 700 2rem/1.2 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b2430; margin: 0 0 .35rem; }
  /* A phone: the page's own heading and words give the events most of the first screen. */
  @media (max-width: 600px) {
    main { padding: 1rem 1rem 2rem; }
    h1 { font-size: 1.5rem; margin: 0 0 .2rem; }
    .intro { font-size: 14px; line-height: 1.4; margin: 0 0 1rem; }
  }
</style>
</head>
<body>
<main>
  <h1>Hva skjer</h1>
  <p class="intro">Kommende arrangementer fra kalenderen. Denne siden viser widgeten som andre nettsteder kan bygge inn.</p>
  <div data-calendar-widget data-endpoint="/graphQL" data-page-size="6"></div>
</main>
<script type="module" src="/widget/widget.js"></script>
</body>
</html>
`;

// The page runs only our own script; styles are inline (the widget injects its CSS), pictures come
// from the calendar's image hosts.
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src * data:; connect-src 'self'; base-uri 'none'; form-action 'none'";

function send(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Serves the embeddable event widget: `GET /widget` (a page showing it) and `GET /widget/widget.js`
 * (the script, bundled ahead of time by `npm run build`). Answers false for any other path.
 */
export function handleWidget(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  const path = url.pathname;
  const isPage = path === '/widget' || path === '/widget/';
  const isScript = path === '/widget/widget.js';
  if (!isPage && !isScript) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendRequestError(res, 'Use GET.', 'METHOD_NOT_ALLOWED', 405, { headers: { Allow: 'GET, HEAD' } });
    return true;
  }

  if (isPage) {
    send(req, res, 200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'Content-Security-Policy': PAGE_CSP }, PAGE);
    return true;
  }

  let bundle: WidgetScript;
  try {
    bundle = widgetScript();
  } catch (error) {
    // Only a checkout whose build never ran (a release always ships the bundle).
    sendRequestError(res, `The widget script is not built (run npm run build): ${(error as Error).message}`, 'INTERNAL_SERVER_ERROR', 500);
    return true;
  }
  const headers = {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=300',
    ETag: bundle.etag,
    // Module scripts load in CORS mode: other sites can embed the widget only with this header.
    'Access-Control-Allow-Origin': '*',
  };
  if (req.headers['if-none-match'] === bundle.etag) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  send(req, res, 200, headers, bundle.code);
  return true;
}
