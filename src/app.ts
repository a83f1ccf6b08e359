// buildApp(config): the Fastify application — the hooks, the one error and 404 handler, and one encapsulated plugin per
// surface.
import type { Server } from 'node:http';
import path from 'node:path';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { AccessControl } from './auth/access.js';
import type { SessionReader } from './auth/session-reader.js';
import { portalSessionReader, Sessions } from './portal/sessions.js';
import { TokenVerifier } from './auth/token-verifier.js';
import type { Config } from './config.js';
import { loadRates } from './conversion/load-rates.js';
import { ApiError } from './errors.js';
import { BODY_LIMIT, registerRawBody } from './http/raw-body.js';
import { registerCompression } from './http/compression.js';
import { deprecationStage, registerDeprecation, type DeprecationStage } from './http/deprecation.js';
import { frameworkErrorHandler, registerErrorHandlers, type PortalFallback } from './http/error-handler.js';
import { rewriteUrl } from './http/format-suffix.js';
import { answerAsteriskForm } from './http/asterisk-form.js';
import { clientErrorHandler, connectHandler, expectationHandler } from './http/protocol-errors.js';
import { RateLimiter } from './http/rate-limit.js';
import { requestIdOf } from './http/request-id.js';
import { lazyChildLogger } from './http/request-logger.js';
import { requestMetricsPlugin } from './http/request-metrics.js';
import { RequestRecorder } from './http/request-recorder.js';
import { acceptEveryMethod, restoreUnoffered, standInUnoffered } from './http/route-every-method.js';
import { createStorage } from './storage/create-storage.js';
import { OnlineBackup } from './storage/online-backup.js';
import type { Storage } from './storage/storage.js';
import { apiSurface } from './surfaces/api.js';
import { infraSurface } from './surfaces/infra.js';
import { oauthSurface } from './surfaces/oauth.js';
import { portalSurface } from './surfaces/portal.js';
import { portalFallback } from './portal/fallback-pages.js';
import { maskedUrl } from './http/request-log-notes.js';

export interface AppOptions {
  /** A storage to use instead of the one the config selects (tests share nothing this way). */
  storage?: Storage;
  /** Fastify's logger option; defaults to JSON logs at the configured level. */
  logger?: FastifyServerOptions['logger'];
  /** The portal sessions the code flow reads (/oauth2/authorize); by default the portal's own. */
  sessions?: SessionReader;
  /** The time (ms) of token caches and authorization codes; tests advance it. */
  clock?: () => number;
  /** How long a request may take to arrive, head and body (REQUEST_TIMEOUT_MS); tests shorten it. */
  requestTimeoutMs?: number;
}

/**
 * How long a request may take to arrive, its head and its body of at most 16 KiB: Fastify's default is none, and a
 * body sent a byte every few seconds held its connection for good (the resource audit; 20,000 of them fill the file
 * limit). Node checks every few seconds and answers a late one with the catalogue's 400 (protocol-errors.ts).
 */
const REQUEST_TIMEOUT_MS = 30_000;

/** Every logger of the app describes requests with requestForLog (a given logger option included). */
function withRequestSerializer(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (typeof logger !== 'object' || logger === null) return logger;
  return { ...logger, serializers: { req: requestForLog, ...logger.serializers } };
}

/** What a log line says of a request: never the access token a client put in the query string. */
function requestForLog(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    // As the request log masks it: the name read as the query parser reads it (access%5Ftoken too).
    url: maskedUrl(request.url),
    host: request.headers.host,
    remoteAddress: request.ip,
  };
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  // Rates first: a rates file that does not parse stops the start before the database is touched.
  const rates = await loadRates(config);
  const storage = options.storage ?? (await createStorage(config));
  const deprecation = deprecationStage(config);
  const portalPaths = portalFallback(config);
  const app = Fastify(serverOptions(config, options, deprecation, portalPaths));
  app.server.on('checkExpectation', expectationHandler(app, config.portalUrl));
  app.server.on('connect', connectHandler(app, config.portalUrl));
  acceptEveryMethod(app);
  const recorder = new RequestRecorder(
    storage.requestLog,
    { enabled: config.requestLog, days: config.requestLogDays },
    app.log,
  );
  app.decorate('requestRecorder', recorder);
  app.decorate('databaseBackup', databaseBackup(storage, config, app.log));
  registerRootHooks(app, config, storage, recorder);
  registerRawBody(app);
  registerDeprecation(app, deprecation);
  registerCompression(app, config.compression);
  registerErrorHandlers(app, config.portalUrl, portalPaths);
  await app.register(requestMetricsPlugin, { recorder });

  const portalPrefix = new URL(config.portalUrl).pathname.replace(/\/+$/, '');
  const clock = options.clock ?? Date.now;
  const verifier = new TokenVerifier(storage.auth, clock);
  const openLimiter = new RateLimiter(config.rateLimitOpenPerMinute);
  const access = new AccessControl(verifier, new RateLimiter(config.rateLimitPerMinute), openLimiter);
  await app.register(infraSurface, { config, storage });
  // The code flow reads the portal's sessions (the login made on the portal, on any node): tests may give their own.
  const sessions = options.sessions ?? portalSessionReader(new Sessions(storage.sessions, config.portalUrl));
  await app.register(oauthSurface, { config, store: storage.auth, grants: storage.grants, verifier, sessions, clock });
  await app.register(portalSurface, {
    prefix: portalPrefix,
    config,
    store: storage.auth,
    sessionStore: storage.sessions,
    grants: storage.grants,
    requestLog: storage.requestLog,
    clock,
    openLimiter,
    portalPrefix,
  });
  await app.register(apiSurface, { config, storage, access, rates });
  return app;
}

function serverOptions(
  config: Config,
  options: AppOptions,
  deprecation: DeprecationStage | undefined,
  portalPaths: PortalFallback,
): FastifyHttpOptions<Server> {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  return {
    logger: withRequestSerializer(options.logger ?? { level: config.logLevel }),
    rewriteUrl: (request) => {
      standInUnoffered(request);
      return rewriteUrl(request);
    },
    // A path segment is as long as the URL lets it be (Node reads at most 16 KiB of request line and headers): the
    // router's default of 100 characters answered a longer id with its own 400 instead of the id's 404 (or 401).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    bodyLimit: BODY_LIMIT,
    requestIdHeader: false,
    genReqId: (request) => {
      restoreUnoffered(request);
      return requestIdOf(request);
    },
    return503OnClosing: false,
    trustProxy: config.trustProxy ?? false,
    frameworkErrors: frameworkErrorHandler(config.portalUrl, deprecation, portalPaths),
    childLoggerFactory: lazyChildLogger,
    // Node's own protocol errors, and a missing Host (checked in onRequest), answer in the catalogue's shape.
    clientErrorHandler: clientErrorHandler(config.portalUrl),
    // Given to Node's server as it is made: set on it afterwards (as Fastify sets its own), it times nothing.
    requestTimeout,
    http: {
      requireHostHeader: false,
      requestTimeout,
      connectionsCheckingInterval: Math.min(5_000, requestTimeout),
    },
  };
}

/** The hooks of every request of every surface, and the shutdown of the request log and the storage. */
function registerRootHooks(app: FastifyInstance, config: Config, storage: Storage, recorder: RequestRecorder): void {
  const portalHost = new URL(config.portalUrl).host;
  let closing = false;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (closing) {
      done(
        new ApiError(
          'shuttingDown',
          'This node is shutting down and took no new work. Retry the request; it is safe to repeat.',
        ),
      );
      return;
    }
    if (request.raw.url === '*') {
      const refused = answerAsteriskForm(request, reply);
      if (refused !== 'answered') done(refused);
      return;
    }
    const host = request.headers.host;
    if (host === undefined) {
      // Node would answer a bare 400 itself (requireHostHeader); HTTP/1.0 needs no Host.
      if (request.raw.httpVersion === '1.1') done(hostMissingError());
      else done();
      return;
    }
    if (!HOST_VALUE.test(host) || hostLines(request.raw.rawHeaders) > 1) {
      done(
        new ApiError(
          'hostInvalid',
          `The Host header must name one host, once (api.example.com or 192.0.2.1:8080), got "${host.slice(0, 100)}". ` +
            'Send a single Host header with the host the request is for.',
          { connection: 'close' },
        ),
      );
      return;
    }
    const name = host.toLowerCase();
    if ((name.startsWith('dev.') || name.startsWith('developer.')) && name !== portalHost) {
      reply.redirect(config.portalUrl, 302);
      return;
    }
    done();
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onClose', async () => {
    // Requests in flight have finished: what they recorded is written before the database closes.
    await recorder.close();
    await storage.close();
  });
}

/** What SIGUSR2 runs: SQLite's online backup into <DATA_DIR>/backups; on PostgreSQL, a pointer to its own tools. */
function databaseBackup(storage: Storage, config: Config, log: FastifyBaseLogger): () => Promise<string | undefined> {
  if (!storage.backup) {
    return async () => {
      log.warn('backup requested, but PostgreSQL is backed up with its own tools (pg_dump, pg_basebackup)');
      return undefined;
    };
  }
  const backup = new OnlineBackup({ backup: storage.backup.bind(storage) }, path.join(config.dataDir, 'backups'), log);
  return () => backup.run();
}

/**
 * A Host value (RFC 9112 §3.2, RFC 3986 §3.2.2): an IP literal in brackets or a registered name or IPv4 address of
 * the characters a URI's host may hold, then an optional port; empty is allowed (a target without an authority).
 */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]*)(?::[0-9]*)?$/;

/** How many Host header lines a request has: Node keeps the first of several in `headers`. */
function hostLines(rawHeaders: readonly string[]): number {
  let lines = 0;
  for (let at = 0; at < rawHeaders.length; at += 2) {
    const name = rawHeaders[at]!;
    if (name.length === 4 && name.toLowerCase() === 'host') lines += 1;
  }
  return lines;
}

function hostMissingError(): ApiError {
  return new ApiError(
    'hostMissing',
    'The request has no Host header, which HTTP/1.1 requires. Name the host the request is for: Host: api.example.com.',
    { connection: 'close' },
  );
}
