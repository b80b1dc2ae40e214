import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { GetEnveloped } from '../plugins/index.js';
import { answerPreflight, setCorsHeaders } from './cors.js';
import { handleGraphQL } from './graphql-route.js';
import { sendHealth, sendReadiness } from './health.js';
import { prefersHtml } from './negotiate.js';
import type { PersistedQueryStore } from './persisted-queries.js';
import { sendRequestError } from './respond.js';
import { sendSandboxAsset, sendSandboxPage } from './sandbox.js';
import { handleWidget } from './widget-route.js';
import { createSchemaFileHandler, SCHEMA_FILE_PATH } from './schema-file.js';

export interface HttpServerOptions {
  getEnveloped: GetEnveloped;
  persistedQueries: PersistedQueryStore;
  /** The SDL the executable schema was built from, published at /schema.graphql. */
  schemaSource: string;
  logger: Logger;
  /** Answers whether the database is reachable (for /ready). */
  checkReady: () => Promise<boolean>;
  /** Largest accepted request body in bytes. @default 102400 */
  maxBodyBytes?: number;
}

/** The spec names `/graphQL`; the lower-case spelling is accepted too. */
const GRAPHQL_PATHS = new Set(['/graphQL', '/graphql']);

/** Routes requests; each concern lives in its own module. */
export function createHttpServer(options: HttpServerOptions): Server {
  const sendSchemaFile = createSchemaFileHandler(options.schemaSource);
  const notFound = (req: IncomingMessage, res: ServerResponse, path: string) =>
    sendRequestError(res, `No route for ${req.method} ${path}. The API is at /graphQL (GET or POST); the schema at ${SCHEMA_FILE_PATH}.`, 'NOT_FOUND');
  const methodNotAllowed = (res: ServerResponse, allow: string) =>
    sendRequestError(res, `Use ${allow.replace(', OPTIONS', '')}.`, 'METHOD_NOT_ALLOWED', { headers: { Allow: allow } });

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    setCorsHeaders(res);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (req.method === 'OPTIONS') return answerPreflight(req, res);

    if (GRAPHQL_PATHS.has(path)) {
      if (req.method === 'GET' && prefersHtml(req)) return sendSandboxPage(res);
      if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed(res, 'GET, POST, OPTIONS');
      return handleGraphQL(req, res, url, {
        getEnveloped: options.getEnveloped,
        persistedQueries: options.persistedQueries,
        logger: options.logger,
        maxBodyBytes: options.maxBodyBytes,
      });
    }
    if (path === SCHEMA_FILE_PATH || path === '/health' || path === '/ready' || path.startsWith('/sandbox/')) {
      if (req.method !== 'GET') return methodNotAllowed(res, 'GET, OPTIONS');
      if (path === SCHEMA_FILE_PATH) return sendSchemaFile(req, res);
      if (path === '/health') return sendHealth(res);
      if (path === '/ready') return sendReadiness(res, options.checkReady);
      if (sendSandboxAsset(req, res, path)) return;
    }
    if (path === '/widget' || path.startsWith('/widget/')) {
      if (await handleWidget(req, res, url)) return;
    }
    return notFound(req, res, path);
  };

  return createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      options.logger.error({ err: error, url: req.url }, 'request failed');
      if (!res.headersSent) sendRequestError(res, 'Internal server error: the failure has been logged.', 'INTERNAL_SERVER_ERROR');
      else res.destroy();
    });
  });
}
