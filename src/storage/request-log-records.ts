// The request log's records in their packed form: the recorder appends each request's fields to a byte buffer (no
// object per request, nothing for the garbage collector to trace or promote), a flush hands the buffer over as one
// batch, SQLite stores each app's bytes as one row, and the portal's rare reads unpack them.
import {
  hourOf,
  pageOf,
  statusClassOf,
  type RequestLogEntry,
  type RequestLogPage,
  type RequestLogQuery,
  type StoredRequest,
} from './request-log-store.js';

/**
 * A record: time (float64, ms), duration (float32, ms), status (uint16), code (uint16, 0 for none), version (uint8),
 * then the byte lengths of method (uint8), path (uint16), request id (uint8), message (uint16), then those strings as
 * UTF-8. Little-endian.
 */
const TIME = 0;
const DURATION = 8;
const STATUS = 12;
const CODE = 14;
const VERSION = 16;
const METHOD_LENGTH = 17;
const PATH_LENGTH = 18;
const ID_LENGTH = 20;
const MESSAGE_LENGTH = 21;
const HEADER = 23;

/** Longer strings are cut (with an ellipsis), so a record always fits its length fields and a buffer. */
const MAX_METHOD = 32;
const MAX_PATH = 16384;
const MAX_ID = 128;
const MAX_MESSAGE = 2048;
/** UTF-8 takes at most 3 bytes per UTF-16 unit. */
const MAX_RECORD = HEADER + 3 * (MAX_METHOD + MAX_PATH + MAX_ID + MAX_MESSAGE);

/** The account and app a record is for. */
export interface Caller {
  readonly tenantId: string;
  readonly clientId: string;
}

/** One app's records of a batch: what a SQLite row keeps. */
export interface PackedApp extends Caller {
  readonly count: number;
  readonly firstTime: number;
  readonly lastTime: number;
  /** Requests of class 2xx, 3xx, 4xx, 5xx. */
  readonly classes: readonly [number, number, number, number];
  /** The records, back to back. */
  readonly bytes: Buffer;
}

/** One app's requests in one hour (from its start, ms since the epoch, UTC): the usage kept beside the log. */
export interface HourCount extends Caller {
  readonly hour: number;
  /** Requests of class 2xx, 3xx, 4xx, 5xx. */
  readonly classes: [number, number, number, number];
}

/** A flush's records, grouped by app (SQLite keeps each app's bytes) or unpacked (PostgreSQL keeps a row each). */
export interface RequestLogBatch {
  readonly size: number;
  apps(): PackedApp[];
  entries(): RequestLogEntry[];
  /** Its requests counted per app, hour and status class (both backends add them to request_usage). */
  hours(): HourCount[];
}

/** Records appended one by one into one byte buffer, with each record's start and app. */
export class RecordBuffer implements RequestLogBatch {
  size = 0;
  private used = 0;
  private readonly bytes: Buffer;
  private readonly starts: Uint32Array;
  private readonly appOf: Uint16Array;
  private readonly callers: Caller[] = [];
  private readonly appIndex = new Map<Caller, number>();

  constructor(
    readonly capacity: number,
    byteCapacity = Math.max(capacity * 256, 2 * MAX_RECORD),
  ) {
    this.bytes = Buffer.allocUnsafe(byteCapacity);
    this.starts = new Uint32Array(capacity + 1);
    this.appOf = new Uint16Array(capacity);
  }

  /** True when another record surely fits. */
  get hasRoom(): boolean {
    return this.size < this.capacity && this.used + MAX_RECORD <= this.bytes.length;
  }

  /** Appends a record; the caller checks hasRoom first. */
  append(
    caller: Caller,
    time: number,
    method: string,
    path: string,
    requestId: string,
    status: number,
    code: number,
    message: string | undefined,
    durationMs: number,
    version: number,
  ): void {
    const bytes = this.bytes;
    const start = this.used;
    let at = start + HEADER;
    const methodLength = bytes.write(cut(method, MAX_METHOD), at);
    at += methodLength;
    const pathLength = bytes.write(cut(path, MAX_PATH), at);
    at += pathLength;
    const idLength = bytes.write(cut(requestId, MAX_ID), at);
    at += idLength;
    const messageLength = message === undefined ? 0 : bytes.write(cut(message, MAX_MESSAGE), at);
    at += messageLength;
    bytes.writeDoubleLE(time, start + TIME);
    bytes.writeFloatLE(durationMs, start + DURATION);
    bytes.writeUInt16LE(status, start + STATUS);
    bytes.writeUInt16LE(code, start + CODE);
    bytes[start + VERSION] = version;
    bytes[start + METHOD_LENGTH] = methodLength;
    bytes.writeUInt16LE(pathLength, start + PATH_LENGTH);
    bytes[start + ID_LENGTH] = idLength;
    bytes.writeUInt16LE(messageLength, start + MESSAGE_LENGTH);
    let app = this.appIndex.get(caller);
    if (app === undefined) {
      app = this.callers.push(caller) - 1;
      this.appIndex.set(caller, app);
    }
    this.starts[this.size] = start;
    this.appOf[this.size] = app;
    this.size += 1;
    this.used = at;
    this.starts[this.size] = at;
  }

  /** Empties the buffer for reuse once its batch is written. */
  clear(): void {
    this.size = 0;
    this.used = 0;
    this.callers.length = 0;
    this.appIndex.clear();
  }

  apps(): PackedApp[] {
    return this.groups().map(({ caller, records }) => this.packed(caller, records));
  }

  hours(): HourCount[] {
    const hours: HourCount[] = [];
    for (const { caller, records } of this.groups()) {
      const app = new Map<number, HourCount>();
      for (const record of records) {
        const start = this.starts[record]!;
        const slot = classSlot(this.bytes.readUInt16LE(start + STATUS));
        if (slot === undefined) continue;
        const hour = hourOf(this.bytes.readDoubleLE(start + TIME));
        let count = app.get(hour);
        if (!count) app.set(hour, (count = { ...caller, hour, classes: [0, 0, 0, 0] }));
        count.classes[slot]++;
      }
      hours.push(...app.values());
    }
    return hours;
  }

  /** How many records each app appended. */
  counts(): Array<[Caller, number]> {
    return this.groups().map(({ caller, records }) => [caller, records.length]);
  }

  entries(): RequestLogEntry[] {
    const entries: RequestLogEntry[] = new Array(this.size);
    for (let record = 0; record < this.size; record++) {
      const { tenantId, clientId } = this.callers[this.appOf[record]!]!;
      entries[record] = { tenantId, clientId, ...fieldsAt(this.bytes, this.starts[record]!) };
    }
    return entries;
  }

  /** One app's records: the buffer's own bytes when they are all its (no copy), else a copy of each. */
  private packed(caller: Caller, records: readonly number[]): PackedApp {
    if (records.length === this.size) return packedRow(caller, this.bytes.subarray(0, this.used));
    const bytes = Buffer.allocUnsafe(this.lengthOf(records));
    let at = 0;
    for (const record of records) at += this.bytes.copy(bytes, at, this.starts[record]!, this.starts[record + 1]!);
    return packedRow(caller, bytes);
  }

  /**
   * The records of each app, in the order they came. Callers are told apart by identity when appended (no key built
   * per request); here the callers of one app (two tokens of it) become one group, keyed once per caller.
   */
  private groups(): Array<{ caller: Caller; records: number[] }> {
    const byKey = new Map<string, { caller: Caller; records: number[] }>();
    const ofCaller = this.callers.map((caller) => {
      const key = `${caller.tenantId} ${caller.clientId}`;
      let group = byKey.get(key);
      if (!group)
        byKey.set(key, (group = { caller: { tenantId: caller.tenantId, clientId: caller.clientId }, records: [] }));
      return group;
    });
    for (let record = 0; record < this.size; record++) ofCaller[this.appOf[record]!]!.records.push(record);
    return [...byKey.values()];
  }

  private lengthOf(records: readonly number[]): number {
    let length = 0;
    for (const record of records) length += this.starts[record + 1]! - this.starts[record]!;
    return length;
  }
}

/** A batch of entries given whole (tests, and the rows pruning rewrites). */
export function batchOf(entries: readonly RequestLogEntry[]): RecordBuffer {
  const buffer = new RecordBuffer(entries.length);
  const callers = new Map<string, Caller>();
  for (const entry of entries) {
    const key = `${entry.tenantId} ${entry.clientId}`;
    let caller = callers.get(key);
    if (!caller) callers.set(key, (caller = { tenantId: entry.tenantId, clientId: entry.clientId }));
    const { time, method, path, requestId, status, code, message, durationMs, version } = entry;
    buffer.append(caller, time, method, path, requestId, status, code ?? 0, message ?? undefined, durationMs, version);
  }
  return buffer;
}

/** A row of packed records with its count, time range and class counts. */
export function packedRow({ tenantId, clientId }: Caller, bytes: Buffer): PackedApp {
  const classes: [number, number, number, number] = [0, 0, 0, 0];
  let count = 0;
  let firstTime = Infinity;
  let lastTime = -Infinity;
  for (let at = 0; at < bytes.length; at = endOf(bytes, at)) {
    count++;
    const time = bytes.readDoubleLE(at + TIME);
    const slot = classSlot(bytes.readUInt16LE(at + STATUS));
    if (slot !== undefined) classes[slot]++;
    if (time < firstTime) firstTime = time;
    if (time > lastTime) lastTime = time;
  }
  return { tenantId, clientId, count, firstTime, lastTime, classes, bytes };
}

/** The records of a row, oldest first, numbered from `firstSeq`. */
export function unpack(bytes: Buffer, caller: Caller, firstSeq: number): StoredRequest[] {
  const out: StoredRequest[] = [];
  for (let at = 0; at < bytes.length; at = endOf(bytes, at)) {
    out.push({ seq: firstSeq + out.length, ...caller, ...fieldsAt(bytes, at) });
  }
  return out;
}

/**
 * A page of one app's log gathered from its rows read newest first (both backends keep a row per flush and app): each
 * row's records walked backwards, past the cursor, of the asked status class and request id.
 */
export class NewestFirst {
  private readonly entries: StoredRequest[] = [];

  constructor(private readonly query: RequestLogQuery) {}

  /** Adds a row's records (oldest first, as unpack gives them); true once the page and one more are found. */
  add(row: readonly StoredRequest[]): boolean {
    const { before, statusClass, requestId, limit } = this.query;
    for (let i = row.length - 1; i >= 0; i--) {
      const entry = row[i]!;
      if (before !== undefined && entry.seq >= before) continue;
      if (statusClass !== undefined && statusClassOf(entry.status) !== statusClass) continue;
      if (requestId !== undefined && entry.requestId !== requestId) continue;
      this.entries.push(entry);
      if (this.entries.length > limit) return true;
    }
    return false;
  }

  page(): RequestLogPage {
    return pageOf(this.entries, this.query.limit);
  }
}

/** The byte offset of record `index` of a row (its length when the row has fewer): where a trimmed row starts. */
export function offsetOf(bytes: Buffer, index: number): number {
  let at = 0;
  for (let record = 0; record < index && at < bytes.length; record++) at = endOf(bytes, at);
  return at;
}

/** How many records at the start of a row are older than `before` (within an app, records are in time order). */
export function olderThan(bytes: Buffer, before: number): number {
  let count = 0;
  for (let at = 0; at < bytes.length && bytes.readDoubleLE(at + TIME) < before; at = endOf(bytes, at)) count++;
  return count;
}

function endOf(bytes: Buffer, at: number): number {
  return (
    at +
    HEADER +
    bytes[at + METHOD_LENGTH]! +
    bytes.readUInt16LE(at + PATH_LENGTH) +
    bytes[at + ID_LENGTH]! +
    bytes.readUInt16LE(at + MESSAGE_LENGTH)
  );
}

type Fields = Omit<RequestLogEntry, 'tenantId' | 'clientId'>;

function fieldsAt(bytes: Buffer, at: number): Fields {
  let from = at + HEADER;
  const text = (length: number): string => bytes.toString('utf8', from, (from += length));
  const method = text(bytes[at + METHOD_LENGTH]!);
  const path = text(bytes.readUInt16LE(at + PATH_LENGTH));
  const requestId = text(bytes[at + ID_LENGTH]!);
  const messageLength = bytes.readUInt16LE(at + MESSAGE_LENGTH);
  const code = bytes.readUInt16LE(at + CODE);
  return {
    time: bytes.readDoubleLE(at + TIME),
    method,
    path,
    version: bytes[at + VERSION]!,
    status: bytes.readUInt16LE(at + STATUS),
    code: code === 0 ? null : code,
    message: code === 0 && messageLength === 0 ? null : text(messageLength),
    // float32 keeps about 7 digits: the log shows durations to the microsecond, not the float's noise.
    durationMs: Math.round(bytes.readFloatLE(at + DURATION) * 1000) / 1000,
    requestId,
  };
}

/** A status's place in the class counts: 0 for 2xx … 3 for 5xx (undefined for any other). */
function classSlot(status: number): 0 | 1 | 2 | 3 | undefined {
  const slot = statusClassOf(status) - 2;
  return slot === 0 || slot === 1 || slot === 2 || slot === 3 ? slot : undefined;
}

/** The string, cut to `max` UTF-16 units with an ellipsis when longer. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
