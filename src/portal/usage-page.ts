// The usage page of an app (SPEC §12, logged in): its requests per hour for the last 24 hours and per day for the last
// 30 days, by status class, as server-drawn SVG charts with the same numbers in words and tables.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionStore } from '../auth/session-store.js';
import type { Config } from '../config.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { DAY_MS, HOUR_MS, type RequestLogStore, type UsageCount } from '../storage/request-log-store.js';
import { tenantScope } from '../storage/storage.js';
import { appHeading, ownedApp, type OwnedApp } from './app-pages.js';
import { page } from './html.js';
import { frameOf, sendPage } from './portal-context.js';
import { usageSection, type Period } from './usage-html.js';

export interface UsagePageOptions {
  readonly sessions: SessionStore;
  readonly requestLog: RequestLogStore;
  readonly config: Config;
  /** Now, in ms (tests move it). */
  readonly clock: () => number;
  readonly prefix: string;
  readonly wrongMethod: WrongMethodAnswer;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The two periods: 24 hours, the current one last, labelled every 6; 30 days, today last, labelled every 7. */
const HOURS = {
  id: 'hours',
  title: 'Last 24 hours',
  unit: 'hour',
  bucketMs: HOUR_MS,
  buckets: 24,
  labelEvery: 6,
  label: (start: Date) => `${pad(start.getUTCHours())}:00`,
  name: (start: Date) => `${start.toISOString().slice(0, 13).replace('T', ' ')}:00 UTC`,
} as const;
const DAYS = {
  id: 'days',
  title: 'Last 30 days',
  unit: 'day',
  bucketMs: DAY_MS,
  buckets: 30,
  labelEvery: 7,
  label: (start: Date) => `${start.getUTCDate()} ${MONTHS[start.getUTCMonth()]}`,
  name: (start: Date) => start.toISOString().slice(0, 10),
} as const;

export function registerUsagePage(portal: FastifyInstance, options: UsagePageOptions): void {
  const { sessions, prefix, wrongMethod } = options;
  routeEveryMethod(portal, {
    url: '/dashboard/apps/:clientId/usage',
    method: ['GET'],
    wrongMethod,
    handler: async (request, reply) => {
      const owned = await ownedApp(request, reply, sessions, prefix);
      return owned ? showUsage(request, reply, owned, options) : reply;
    },
  });
}

async function showUsage(
  request: FastifyRequest,
  reply: FastifyReply,
  { session, app }: OwnedApp,
  { requestLog, config, clock, prefix }: UsagePageOptions,
): Promise<FastifyReply> {
  const now = clock();
  const scope = tenantScope(session.accountId);
  const periods = await Promise.all(
    [HOURS, DAYS].map(async (period): Promise<Period> => {
      // Buckets start on the hour (the day) in UTC, as the store counts them; the current one is the last.
      const last = now - (now % period.bucketMs);
      const since = last - (period.buckets - 1) * period.bucketMs;
      const counts = await requestLog.usage(scope, app.id, period.bucketMs, since);
      return { ...period, bars: barsOf(counts, since, period) };
    }),
  );
  const body = `${appHeading(prefix, app, 'usage', 'Usage')}
<p class="lead">Requests made with this app's tokens, by status class. Times are UTC; the last bar is the hour (the
day) under way. Every request counts, however many there are: the counts are kept 31 days, beyond the request log's
${config.requestLogDays} days and its 10,000 requests per app.</p>
<div class="charts">
${periods.map(usageSection).join('\n')}
</div>`;
  return sendPage(reply, page(frameOf(request, prefix), `Usage · ${app.name}`, body));
}

function barsOf(counts: readonly UsageCount[], since: number, period: typeof HOURS | typeof DAYS): Period['bars'] {
  const bars = Array.from({ length: period.buckets }, (_, index) => {
    const start = new Date(since + index * period.bucketMs);
    const label = index % period.labelEvery === (period.buckets - 1) % period.labelEvery ? period.label(start) : '';
    return { label, name: period.name(start), counts: [0, 0, 0, 0] as [number, number, number, number] };
  });
  for (const { start, statusClass, count } of counts) {
    const bar = bars[Math.floor((start - since) / period.bucketMs)];
    if (bar && statusClass >= 2 && statusClass <= 5) bar.counts[statusClass - 2] += count;
  }
  return bars;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
