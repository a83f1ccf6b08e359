// The request log's HTML: the filter form, the table of requests (cards on a phone), the pager and a request's details.
import { cutText } from '../http/request-log-notes.js';
import type { AccountApp } from '../auth/session-store.js';
import type { Config } from '../config.js';
import { entryByCode } from '../errors.js';
import type { RequestLogPage, StoredRequest } from '../storage/request-log-store.js';
import { appHeading, appPath } from './app-pages.js';
import { escapeHtml } from './html.js';
import type { LogFilter, TypedFilter } from './request-log-filter.js';

const CLASSES = ['all', '2xx', '3xx', '4xx', '5xx'] as const;
const CLASS_NAMES: Readonly<Record<string, string>> = {
  2: 'success',
  3: 'redirect',
  4: 'client error',
  5: 'server error',
};

export interface LogView {
  readonly prefix: string;
  readonly app: AccountApp;
  readonly typed: TypedFilter;
  readonly error?: string;
  readonly filter?: LogFilter;
  readonly found?: RequestLogPage;
  readonly config: Config;
}

export function logBody(view: LogView): string {
  const { prefix, app, error, found, config } = view;
  const kept = `Requests made with this app's tokens, newest first. Each is kept ${config.requestLogDays} days, at most
10,000 per app; any <code>access_token</code> in a query is masked. Times are UTC.`;
  const off = config.requestLog
    ? ''
    : '<p class="notice">The request log is switched off on this server (<code>REQUEST_LOG=off</code>): no new requests are recorded.</p>';
  const result = error ? `<p class="alert" role="alert">${escapeHtml(error)}</p>` : found ? results(view, found) : '';
  return `${appHeading(prefix, app, 'requests', 'Request log')}
<p class="lead">${kept}</p>
${off}${filterForm(prefix, app, view.typed)}
${result}`;
}

function filterForm(prefix: string, app: AccountApp, typed: TypedFilter): string {
  const selected = typed.status === '' ? 'all' : typed.status;
  const options = CLASSES.map(
    (value) =>
      `<option value="${value}"${value === selected ? ' selected' : ''}>${value === 'all' ? 'All' : value}</option>`,
  ).join('');
  return `<form method="get" action="${appPath(prefix, app.id)}/requests" class="filters" role="search" aria-label="Filter the log">
<div class="field"><label for="log-status">Status</label><select id="log-status" name="status">${options}</select></div>
<div class="field grow"><label for="log-request-id">Request id <span class="muted">· the <code>X-Request-Id</code> of an answer</span></label>
<input id="log-request-id" name="request_id" maxlength="128" autocomplete="off" spellcheck="false" value="${escapeHtml(typed.requestId)}"></div>
<div class="field actions"><button type="submit">Filter</button> <a href="${appPath(prefix, app.id)}/requests">Clear</a></div>
</form>`;
}

function results({ prefix, app, filter, typed }: LogView, found: RequestLogPage): string {
  const base = `${appPath(prefix, app.id)}/requests`;
  const filtered = filter?.statusClass !== undefined || filter?.requestId !== undefined;
  if (found.entries.length === 0) {
    if (filter?.before !== undefined)
      return `<p class="notice">No older requests. <a href="${base}${query(typed)}">Back to the newest</a>.</p>`;
    return filtered
      ? `<p class="notice">No request of this app matches these filters. <a href="${base}">Show every request</a>.</p>`
      : `<p class="notice empty">No requests yet. Call the API with a token of this app: each request shows here
within a few seconds.</p>`;
  }
  const rows = found.entries.map((entry) => row(prefix, base, entry)).join('\n');
  const pager = [
    filter?.before !== undefined ? `<a href="${base}${query(typed)}">Newest</a>` : '',
    found.next !== undefined ? `<a href="${base}${query(typed, found.next)}" rel="next">Older requests</a>` : '',
  ].join('');
  return `<div class="table-wrap"><table class="log">
<caption class="sr-only">Requests of ${escapeHtml(app.name)}, newest first</caption>
<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Version</th>
<th scope="col">Status</th><th scope="col">Code</th><th scope="col">Duration</th><th scope="col">Request id</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>
${pager === '' ? '' : `<nav class="pager" aria-label="Pages of the log">${pager}</nav>`}`;
}

/** The query of a link that keeps the filters, and goes to the page before `before` when given. */
function query(typed: TypedFilter, before?: number): string {
  const params = new URLSearchParams();
  if (typed.status !== '' && typed.status !== 'all') params.set('status', typed.status);
  if (typed.requestId !== '') params.set('request_id', typed.requestId);
  if (before !== undefined) params.set('before', String(before));
  const text = params.toString();
  return text === '' ? '' : escapeHtml(`?${text}`);
}

function row(prefix: string, base: string, entry: StoredRequest): string {
  const details = `${base}/${encodeURIComponent(entry.requestId)}`;
  return (
    `<tr><td data-label="Time">${timeOf(entry.time)}</td><td data-label="Method">${escapeHtml(entry.method)}</td>` +
    `<td data-label="Path" class="path"><code>${escapeHtml(shortPath(entry.path))}</code></td><td data-label="Version">v${entry.version}</td>` +
    `<td data-label="Status">${statusBadge(entry.status)}</td><td data-label="Code">${codeOf(prefix, entry.code)}</td>` +
    `<td data-label="Duration" class="num">${entry.durationMs.toFixed(1)} ms</td>` +
    `<td data-label="Request id"><a href="${details}" class="rid" title="Details of this request">${escapeHtml(entry.requestId)}</a></td></tr>`
  );
}

function timeOf(time: number, precise = false): string {
  const iso = new Date(time).toISOString();
  const shown = precise ? `${iso.replace('T', ' ').replace('Z', '')} UTC` : iso.slice(0, 19).replace('T', ' ');
  return `<time datetime="${iso}">${shown}</time>`;
}

function statusBadge(status: number): string {
  const statusClass = Math.floor(status / 100);
  return `<span class="status s${statusClass}">${status}</span>`;
}

/** A code links to its page on the portal (the more_info of the answer). */
function codeOf(prefix: string, code: number | null): string {
  if (code === null) return '<span class="muted" title="none">—</span>';
  return `<a href="${prefix}/errors/${code}">${code}</a>`;
}

/** Every field of the requests with one id (newest first; normally one), each linked to its code's page. */
export function detailsBody(prefix: string, app: AccountApp, requestId: string, found: RequestLogPage): string {
  const log = `${appPath(prefix, app.id)}/requests`;
  const cards = found.entries.map((entry) => detailsCard(prefix, app, entry)).join('\n');
  const more =
    found.entries.length > 1 || found.next !== undefined
      ? `<p class="notice">Several requests carried this <code>X-Request-Id</code>; the newest is first.</p>`
      : '';
  return `${appHeading(prefix, app, 'requests', 'Request details')}
${more}${cards}
<p class="links"><a href="${log}" class="btn">Back to the request log</a> <a href="${log}?request_id=${encodeURIComponent(requestId)}">Show it in the log</a></p>`;
}

function detailsCard(prefix: string, app: AccountApp, entry: StoredRequest): string {
  const statusClass = Math.floor(entry.status / 100);
  const error = entry.code === null ? undefined : entryByCode(entry.code);
  const code =
    entry.code === null
      ? '<span class="muted">none: the request succeeded</span>'
      : `<a href="${prefix}/errors/${entry.code}">${entry.code}${error ? ` · ${escapeHtml(error.title)}` : ''}</a>`;
  const field = (name: string, value: string): string => `<dt>${name}</dt><dd>${value}</dd>`;
  return `<section class="card" aria-label="Request ${escapeHtml(entry.requestId)}">
<h2 class="request-line">${statusBadge(entry.status)} <code>${escapeHtml(entry.method)} ${escapeHtml(shortPath(entry.path))}</code></h2>
<dl class="details">
${field('Request id', `<code>${escapeHtml(entry.requestId)}</code>`)}
${field('Time', timeOf(entry.time, true))}
${field('Method', escapeHtml(entry.method))}
${field('Path and query', `<code class="long">${escapeHtml(entry.path)}</code>`)}
${field('API version', `v${entry.version}`)}
${field('Status', `${entry.status} <span class="muted">(${CLASS_NAMES[statusClass] ?? 'other'})</span>`)}
${field('Code', code)}
${field('Message', entry.message === null ? '<span class="muted">none</span>' : escapeHtml(entry.message))}
${field('Duration', `${entry.durationMs.toFixed(3)} ms`)}
${field('App', `${escapeHtml(app.name)} <code>${escapeHtml(entry.clientId)}</code>`)}
</dl>
</section>`;
}

/** How much of a path the log's rows and the details' heading show; the details show all of it, in a box of its own. */
const SHORT_PATH = 120;

/** A path cut to SHORT_PATH characters, with an ellipsis where it was cut (never between a surrogate pair). */
function shortPath(path: string): string {
  return cutText(path, SHORT_PATH);
}
