// The request log pages of an app (SPEC §12, logged in): its requests newest first, filtered by status class and
// request id in a GET form, a keyset page of 50 at a time, and one request's details.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionStore } from '../auth/session-store.js';
import type { Config } from '../config.js';
import { REQUEST_ID } from '../http/request-id.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import type { RequestLogStore } from '../storage/request-log-store.js';
import { tenantScope } from '../storage/storage.js';
import { ownedApp, type OwnedApp } from './app-pages.js';
import { notFoundPage } from './fallback-pages.js';
import { page } from './html.js';
import { frameOf, sendPage } from './portal-context.js';
import { readFilter } from './request-log-filter.js';
import { detailsBody, logBody } from './request-log-html.js';

/** Requests on one page of the log: a screenful to scan, and a cheap read (SQLite unpacks a few rows). */
const LOG_PAGE_SIZE = 50;

/** The most requests with one id the details page shows (a client may send the same X-Request-Id again). */
const SAME_ID_SHOWN = 10;

export interface RequestLogPagesOptions {
  readonly sessions: SessionStore;
  readonly requestLog: RequestLogStore;
  readonly config: Config;
  readonly prefix: string;
  readonly wrongMethod: WrongMethodAnswer;
}

export function registerRequestLogPages(portal: FastifyInstance, options: RequestLogPagesOptions): void {
  const { sessions, prefix, wrongMethod } = options;
  routeEveryMethod(portal, {
    url: '/dashboard/apps/:clientId/requests',
    method: ['GET'],
    wrongMethod,
    handler: async (request, reply) => {
      const owned = await ownedApp(request, reply, sessions, prefix);
      return owned ? showLog(request, reply, owned, options) : reply;
    },
  });
  routeEveryMethod(portal, {
    url: '/dashboard/apps/:clientId/requests/:requestId',
    method: ['GET'],
    wrongMethod,
    handler: async (request, reply) => {
      const owned = await ownedApp(request, reply, sessions, prefix);
      return owned ? showDetails(request, reply, owned, options) : reply;
    },
  });
}

async function showLog(
  request: FastifyRequest,
  reply: FastifyReply,
  { session, app }: OwnedApp,
  { requestLog, config, prefix }: RequestLogPagesOptions,
): Promise<FastifyReply> {
  const { typed, filter, error } = readFilter(request.query as Record<string, unknown>);
  const found = filter
    ? await requestLog.list(tenantScope(session.accountId), { clientId: app.id, ...filter, limit: LOG_PAGE_SIZE })
    : undefined;
  const body = logBody({ prefix, app, typed, error, filter, found, config });
  // A query the form could not have sent is answered like the dashboard's bad form: 400, the message, what was typed.
  return sendPage(reply, page(frameOf(request, prefix), `Request log · ${app.name}`, body), error ? 400 : 200);
}

async function showDetails(
  request: FastifyRequest,
  reply: FastifyReply,
  { session, app }: OwnedApp,
  { requestLog, prefix }: RequestLogPagesOptions,
): Promise<FastifyReply> {
  const { requestId } = request.params as { requestId: string };
  if (!REQUEST_ID.test(requestId)) return notFoundPage(prefix)(request, reply);
  // Read through the app's log, not by id alone: the same id on another app of the account is not this page's.
  const found = await requestLog.list(tenantScope(session.accountId), {
    clientId: app.id,
    requestId,
    limit: SAME_ID_SHOWN,
  });
  if (found.entries.length === 0) return notFoundPage(prefix)(request, reply);
  const body = detailsBody(prefix, app, requestId, found);
  return sendPage(reply, page(frameOf(request, prefix), `Request ${requestId}`, body));
}
