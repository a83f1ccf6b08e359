// Records every exchange a test app has (injected or over a real socket) as one JSON line, for the OpenAPI replay check.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, join, relative } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/** One recorded exchange: what test-openapi/traffic-check.ts replays against the documents. */
export interface TrafficLine {
  /** The test file that sent it. */
  file: string;
  method: string;
  /** The URL as sent: path and query. */
  url: string;
  /** The request's Host (when the test named one), Content-Type, Accept and X-HTTP-Method-Override, when sent. */
  host?: string;
  requestType?: string;
  accept?: string;
  override?: string;
  /** The request body, when it was text of at most 4 KiB (a method field in it is an override too). */
  requestBody?: string;
  status: number;
  /** The answer's Content-Type and Content-Encoding headers. */
  type?: string;
  encoding?: string;
  /** The body as sent: UTF-8 text, or base64 when it is encoded (compressed). */
  body: string;
  /** Set when Node refused the request before routing it (a protocol error): its error code. */
  protocolError?: string;
}

// Each exchange is named by the test file that built its app: the first test file on the stack of recordTraffic's call
// (with source maps, its TypeScript source; npm test runs short files several to a process, scripts/test.sh), else
// the file the process was started with.
const TEST_FILE = /(\/[^():\s]+\.(?:test|check)\.[jt]s):\d+/;
const processFile = process.argv.find((arg) => /\.(test|check)\.[jt]s$/.test(arg));

function testFileOf(stack: string | undefined): string {
  const path = TEST_FILE.exec(stack ?? '')?.[1] ?? processFile;
  if (path === undefined) return basename(process.argv[1] ?? 'unknown');
  return relative(process.cwd(), path)
    .replace(/^\.test-build\//, '')
    .replace(/\.js$/, '.ts');
}

// One file per process and directory, opened at the first exchange.
const files = new Map<string, number>();

function append(directory: string, line: TrafficLine): void {
  let fd = files.get(directory);
  if (fd === undefined) {
    const opened = openSync(join(directory, `traffic-${process.pid}.jsonl`), 'a');
    process.once('exit', () => closeSync(opened));
    files.set(directory, opened);
    fd = opened;
  }
  writeSync(fd, JSON.stringify(line) + '\n');
}

type HeaderBag = Record<string, string | string[] | number | undefined> | undefined;

function header(headers: HeaderBag, name: string): string | undefined {
  if (!headers) return undefined;
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === name) return String(headers[key]);
  }
  return undefined;
}

function bodyText(raw: Buffer, encoding: string | undefined): string {
  return encoding === undefined || encoding === 'identity' ? raw.toString('utf8') : raw.toString('base64');
}

/** Wraps the app's inject and watches its server, so every exchange of this app is appended to a file in `directory`. */
export function recordTraffic(app: FastifyInstance, directory: string): void {
  const file = testFileOf(new Error().stack);
  const record: Recorder = (line) => append(directory, { file, ...line });
  const inject = app.inject.bind(app) as (...args: unknown[]) => Promise<LightMyRequestResponse>;
  (app as { inject: unknown }).inject = (options: InjectOptions | string | undefined, ...rest: unknown[]) =>
    // The chained and callback forms are passed through unrecorded; the suite uses neither.
    options === undefined || rest.length > 0 ? inject(options, ...rest) : recordInjected(record, inject, options);
  // A real listening server: the raw response's bytes, captured before Fastify's own listener runs.
  app.server.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
    captureSocketExchange(record, request, response),
  );
  app.server.on('clientError', (error: NodeJS.ErrnoException) =>
    record({
      method: '',
      url: '',
      status: 400,
      body: '',
      protocolError: error.code ?? 'unknown',
    }),
  );
}

/** Appends an exchange of one app, named by its test file. */
type Recorder = (line: Omit<TrafficLine, 'file'>) => void;

async function recordInjected(
  record: Recorder,
  inject: (options: InjectOptions | string) => Promise<LightMyRequestResponse>,
  options: InjectOptions | string,
): Promise<LightMyRequestResponse> {
  const response = await inject(options);
  const sent: InjectOptions = typeof options === 'string' ? { url: options } : options;
  // light-my-request sends an object payload as JSON.
  const typed = sent.payload !== undefined && typeof sent.payload === 'object' && !Buffer.isBuffer(sent.payload);
  record({
    ...requestPart(String(sent.method ?? 'GET'), String(sent.url ?? sent.path ?? '/'), sent.headers),
    ...(typed && !header(sent.headers, 'content-type') ? { requestType: 'application/json' } : {}),
    ...requestBodyPart(typed ? JSON.stringify(sent.payload) : sent.payload),
    ...answerPart(response.statusCode, response.headers, response.rawPayload),
  });
  return response;
}

const BODY_KEPT = 4096;

function requestBodyPart(payload: unknown): Pick<TrafficLine, 'requestBody'> {
  const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
  return typeof text === 'string' && text !== '' && text.length <= BODY_KEPT ? { requestBody: text } : {};
}

function requestPart(method: string, url: string, headers: HeaderBag): Omit<TrafficLine, 'file' | 'status' | 'body'> {
  const line: Omit<TrafficLine, 'file' | 'status' | 'body'> = { method: method.toUpperCase(), url };
  const requestType = header(headers, 'content-type');
  const accept = header(headers, 'accept');
  const override = header(headers, 'x-http-method-override');
  const host = header(headers, 'host');
  if (host !== undefined) line.host = host;
  if (requestType !== undefined) line.requestType = requestType;
  if (accept !== undefined) line.accept = accept;
  if (override !== undefined) line.override = override;
  return line;
}

function answerPart(
  status: number,
  headers: HeaderBag,
  raw: Buffer,
): Pick<TrafficLine, 'status' | 'type' | 'encoding' | 'body'> {
  const type = header(headers, 'content-type');
  const encoding = header(headers, 'content-encoding');
  return {
    status,
    ...(type === undefined ? {} : { type }),
    ...(encoding === undefined ? {} : { encoding }),
    body: bodyText(raw, encoding),
  };
}

function captureSocketExchange(record: Recorder, request: IncomingMessage, response: ServerResponse): void {
  // Fastify rewrites request.url (the format suffix): the URL as sent is read now.
  const sent = requestPart(request.method ?? 'GET', request.url ?? '/', request.headers);
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), encoding as BufferEncoding));
  };
  // Fastify gives its headers to writeHead, which getHeaders() does not see.
  let headers: HeaderBag = {};
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  (response as { writeHead: unknown }).writeHead = (...args: unknown[]) => {
    const given = args.find((arg) => typeof arg === 'object' && arg !== null && !Array.isArray(arg));
    headers = given as HeaderBag;
    return writeHead(...args);
  };
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  (response as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, typeof rest[0] === 'string' ? rest[0] : 'utf8');
    return write(chunk, ...rest);
  };
  (response as { end: unknown }).end = (chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, typeof rest[0] === 'string' ? rest[0] : 'utf8');
    return end(chunk, ...rest);
  };
  response.once('finish', () =>
    record({
      ...sent,
      ...answerPart(
        response.statusCode,
        { ...(response.getHeaders() as HeaderBag), ...headers },
        Buffer.concat(chunks),
      ),
    }),
  );
}
