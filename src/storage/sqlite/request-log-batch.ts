// Packs one flush's requests of one app into one request_log row on SQLite, and unpacks a row at read time.
import { statusClassOf, type RequestLogEntry, type StoredRequest } from '../request-log-store.js';

/** One request inside a row: [time, method, path, version, status, code, message, durationMs, requestId]. */
export type Packed = [number, string, string, number, number, number | null, string | null, number, string];

/** A request_log row as read (entries still packed). */
export interface BatchRow {
  tenantId: string;
  clientId: string;
  firstSeq: number;
  entries: string;
}

/** The columns of a row after its key: count, first and last time, the four class counts, entries. */
export function rowOf(entries: readonly RequestLogEntry[]): unknown[] {
  const packed: Packed[] = new Array(entries.length);
  const classes = [0, 0, 0, 0];
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    packed[i] = [e.time, e.method, e.path, e.version, e.status, e.code, e.message, e.durationMs, e.requestId];
    const slot = statusClassOf(e.status) - 2;
    if (slot >= 0 && slot < 4) classes[slot]!++;
    if (e.time < first) first = e.time;
    if (e.time > last) last = e.time;
  }
  return [entries.length, first, last, ...classes, JSON.stringify(packed)];
}

/** The requests of a row, oldest first, with their seq. */
export function unpack(row: BatchRow): StoredRequest[] {
  const packed = JSON.parse(row.entries) as Packed[];
  const out: StoredRequest[] = new Array(packed.length);
  for (let i = 0; i < packed.length; i++) {
    const [time, method, path, version, status, code, message, durationMs, requestId] = packed[i]!;
    out[i] = {
      seq: row.firstSeq + i,
      tenantId: row.tenantId,
      clientId: row.clientId,
      time,
      method,
      path,
      version,
      status,
      code,
      message,
      durationMs,
      requestId,
    };
  }
  return out;
}

/** The requests of a packed array from `start` on, repacked as a row's columns (pruning keeps a row's young end). */
export function tailOf(entries: string, keep: (packed: Packed[]) => number): { drop: number; row: unknown[] } {
  const packed = JSON.parse(entries) as Packed[];
  const drop = keep(packed);
  const rest = packed
    .slice(drop)
    .map(([time, method, path, version, status, code, message, durationMs, requestId]): RequestLogEntry => ({
      tenantId: '',
      clientId: '',
      time,
      method,
      path,
      version,
      status,
      code,
      message,
      durationMs,
      requestId,
    }));
  return { drop, row: rowOf(rest) };
}
