// buildApp(config): the Fastify application — hooks, the one error and 404 handler, API, portal and infrastructure routes.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { AccessControl } from './auth/access.js';
import { registerOAuthRoutes } from './auth/oauth-routes.js';
import { TokenVerifier } from './auth/token-verifier.js';
import type { Config } from './config.js';
import { loadRates } from './conversion/load-rates.js';
import { ApiError } from './errors.js';
import { BODY_LIMIT, registerRawBody } from './http/body.js';
import { deprecationStage, registerDeprecation } from './http/deprecation.js';
import { registerEndpoint } from './http/endpoint.js';
import { frameworkErrorHandler, registerErrorHandlers } from './http/error-handler.js';
import { rewriteUrl } from './http/format-suffix.js';
import { RateLimiter } from './http/rate-limit.js';
import { lazyChildLogger } from './http/request-logger.js';
import { unmatchedPathError } from './http/versions.js';
import { registerErrorPages } from './portal/error-pages.js';
import { registerHomePage } from './portal/home-page.js';
import { registerOpenApiRoutes } from './portal/openapi-routes.js';
import { registerSignup } from './portal/signup.js';
import { registerVersionsPage } from './portal/versions-page.js';
import { resources } from './resources/index.js';
import { adoptionsEndpoint } from './routes/adoptions-routes.js';
import { convertEndpoint } from './routes/convert-routes.js';
import { registerInfraRoutes } from './routes/infra.js';
import { resourceEndpoints } from './routes/resource-routes.js';
import { searchEndpoint } from './routes/search-routes.js';
import { createStorage } from './storage/create-storage.js';
import type { Storage } from './storage/storage.js';

export interface AppOptions {
  /** A storage to use instead of the one the config selects (tests share nothing this way). */
  storage?: Storage;
  /** Fastify's logger option; defaults to JSON logs at the configured level. */
  logger?: FastifyServerOptions['logger'];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every logger of the app describes requests with requestForLog (a given logger option included). */
function withRequestSerializer(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (typeof logger !== 'object' || logger === null) return logger;
  return { ...logger, serializers: { req: requestForLog, ...logger.serializers } };
}

/** What a log line says of a request: never the access token a client put in the query string. */
function requestForLog(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url.replace(/([?&]access_token=)[^&]*/gi, '$1[redacted]'),
    host: request.headers.host,
    remoteAddress: request.ip,
  };
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  // Rates first: a rates file that does not parse stops the start before the database is touched.
  const rates = await loadRates(config);
  const storage = options.storage ?? (await createStorage(config));
  const deprecation = deprecationStage(config);
  const app = Fastify({
    logger: withRequestSerializer(options.logger ?? { level: config.logLevel }),
    rewriteUrl,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: BODY_LIMIT,
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: false,
    trustProxy: config.trustProxy ?? false,
    frameworkErrors: frameworkErrorHandler(config.portalUrl, deprecation),
    childLoggerFactory: lazyChildLogger,
  });

  const portal = new URL(config.portalUrl);
  const portalPrefix = portal.pathname.replace(/\/+$/, '');
  let closing = false;

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (closing) {
      done(new ApiError('shuttingDown', 'This node is shutting down and took no new work. Retry the request; it is safe to repeat.'));
      return;
    }
    const host = request.headers.host ?? '';
    if ((host.startsWith('dev.') || host.startsWith('developer.')) && host !== portal.host) {
      reply.redirect(config.portalUrl, 302);
      return;
    }
    done();
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onClose', async () => {
    await storage.close();
  });

  registerRawBody(app);
  registerDeprecation(app, deprecation);
  registerErrorHandlers(app, config.portalUrl);
  registerInfraRoutes(app, storage);
  registerHomePage(app, config, portalPrefix);
  registerErrorPages(app, portalPrefix);
  registerOpenApiRoutes(app, config, portalPrefix);
  registerVersionsPage(app, config, portalPrefix);
  const openLimiter = new RateLimiter(config.rateLimitOpenPerMinute);
  registerSignup(app, storage.auth, portalPrefix, config.publicUrl, openLimiter);

  const verifier = new TokenVerifier(storage.auth);
  registerOAuthRoutes(app, config, storage.auth, verifier);
  const access = new AccessControl(verifier, new RateLimiter(config.rateLimitPerMinute), openLimiter);

  app.get('/', async (request, reply) => {
    if ((request.headers.accept ?? '').includes('text/html')) return reply.redirect(config.portalUrl, 302);
    throw unmatchedPathError('/');
  });

  const endpoints = [
    ...resources.flatMap((def) => resourceEndpoints(def, { storage, config })),
    searchEndpoint({ storage, config }),
    adoptionsEndpoint({ storage, config }),
    convertEndpoint(rates),
  ];
  for (const endpoint of endpoints) registerEndpoint(app, endpoint, { storage, access });
  return app;
}
