// The request log's filter, from the query of its GET form: status class, request id, and the keyset cursor `before`.
import { REQUEST_ID } from '../http/request-id.js';
import type { StatusClass } from '../storage/request-log-store.js';

/** What the log's query asks for, once checked. */
export interface LogFilter {
  readonly statusClass?: StatusClass;
  readonly requestId?: string;
  readonly before?: number;
}

/** The filter form's fields as the browser sent them: shown again, after an error too. */
export interface TypedFilter {
  readonly status: string;
  readonly requestId: string;
}

/** The filter form's fields as typed, and the filter they make, or the message that says what to fix. */
export function readFilter(query: Record<string, unknown>): { typed: TypedFilter; filter?: LogFilter; error?: string } {
  const status = query.status;
  const requestId = query.request_id;
  const before = query.before;
  const typed = { status: text(status).trim().toLowerCase(), requestId: text(requestId).trim() };
  const repeated = [status, requestId, before].some(Array.isArray);
  if (repeated) return { typed, error: 'Give each filter once: one status class, one request id, one page.' };
  const filter: { statusClass?: StatusClass; requestId?: string; before?: number } = {};
  if (typed.status !== '' && typed.status !== 'all') {
    if (!/^[2-5]xx$/.test(typed.status))
      return { typed, error: `${quoted(typed.status)} is not a status class: choose all, 2xx, 3xx, 4xx or 5xx.` };
    filter.statusClass = Number(typed.status[0]) as StatusClass;
  }
  if (typed.requestId !== '') {
    if (!REQUEST_ID.test(typed.requestId))
      return {
        typed,
        error: `${quoted(typed.requestId)} is not a request id: one is 1 to 128 letters, digits, dots, underscores, colons or hyphens.`,
      };
    filter.requestId = typed.requestId;
  }
  const cursor = text(before);
  if (cursor !== '') {
    if (!/^[1-9][0-9]{0,14}$/.test(cursor))
      return {
        typed,
        error: `${quoted(cursor)} is not a page of the log: follow the Older link, or start from the newest.`,
      };
    filter.before = Number(cursor);
  }
  return { typed, filter };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A refused value as the message quotes it: whole when short, its start when a URL carried a long one. */
function quoted(value: string): string {
  return value.length <= 40 ? `"${value}"` : `"${value.slice(0, 40)}…"`;
}
