// Raw HTTP/1.1 over a socket for the fuzz test: writes bytes exactly as given and parses every answer that comes back.
import net from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface RawAnswer {
  status: number;
  /** Header names in lower case; a repeated header keeps its values joined by ", ". */
  headers: Record<string, string>;
  body: string;
}

export interface Exchange {
  answers: RawAnswer[];
  /** Why the connection ended without a complete answer (a reset, a timeout, an unparseable answer). */
  broken?: string;
}

/** How long one connection may take before the fuzz test calls it hung. */
const TIMEOUT_MS = 15_000;
/** How long a silent server is taken to be waiting for bytes that will not come (a body shorter than announced). */
const SILENCE_MS = 5000;
/** After a complete answer, how long the answers to bytes that followed it (a pipelined request) may take to start. */
const GRACE_MS = 30;

/**
 * Sends the bytes on a new connection and reads every answer until the server closes. Our side is ended (the
 * server sees that no more bytes come) only once an answer has come, or at once for a request `truncated` on
 * purpose: Node drops a request it has not answered yet when the client ends its side.
 */
export function exchange(port: number, bytes: Buffer, head: boolean, truncated = false): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let failure: string | undefined;
    let quiet: NodeJS.Timeout | undefined;
    const endAfter = (ms: number): void => {
      clearTimeout(quiet);
      quiet = setTimeout(() => socket.end(), ms);
    };
    const timer = setTimeout(() => {
      failure = 'timeout: the server neither answered nor closed';
      socket.destroy();
    }, TIMEOUT_MS);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      endAfter(parseAnswers(Buffer.concat(chunks), head).answers.length > 0 ? GRACE_MS : SILENCE_MS);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (failure ??= `socket error ${error.code ?? error.message}`));
    socket.on('close', () => {
      clearTimeout(timer);
      clearTimeout(quiet);
      const parsed = parseAnswers(Buffer.concat(chunks), head);
      resolve({ answers: parsed.answers, broken: parsed.broken ?? failure });
    });
    socket.write(bytes, () => (truncated ? socket.end() : endAfter(SILENCE_MS)));
  });
}

/** Every answer in the bytes, in order; a HEAD request's first answer has no body. */
function parseAnswers(bytes: Buffer, head: boolean): { answers: RawAnswer[]; broken?: string } {
  const answers: RawAnswer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end < 0)
      return { answers, broken: `an incomplete head: ${JSON.stringify(bytes.subarray(at, at + 200).toString())}` };
    const [statusLine = '', ...lines] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3}) /.exec(statusLine);
    if (!match) return { answers, broken: `not a status line: ${JSON.stringify(statusLine)}` };
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    at = end + 4;
    if (status < 200) continue; // 100 Continue: the real answer follows.
    // A HEAD's answer has no body, except a protocol error's that broke past the HEAD's own head (a body, a later
    // request): the service cannot tell that broken request's method.
    const headAnswer = head && answers.length === 0 && !(at < bytes.length && bytes.indexOf('HTTP/', at) !== at);
    const noBody = headAnswer || status === 304;
    const body = noBody ? { text: '', next: at } : readBody(bytes, at, headers);
    if (!body) return { answers, broken: `a body shorter than its framing (status ${status})` };
    answers.push({ status, headers, body: body.text });
    at = body.next;
  }
  return { answers };
}

function readBody(
  bytes: Buffer,
  at: number,
  headers: Record<string, string>,
): { text: string; next: number } | undefined {
  const framed = framedBody(bytes, at, headers);
  return framed && { text: decoded(framed.raw, headers['content-encoding']), next: framed.next };
}

/** The body's bytes as framed by chunking, Content-Length or the end of the connection. */
function framedBody(
  bytes: Buffer,
  at: number,
  headers: Record<string, string>,
): { raw: Buffer; next: number } | undefined {
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') return readChunks(bytes, at);
  const length = Number(headers['content-length'] ?? 'NaN');
  // Without a length the body runs to the end of the connection.
  if (!Number.isInteger(length)) return { raw: bytes.subarray(at), next: bytes.length };
  if (at + length > bytes.length) return undefined;
  return { raw: bytes.subarray(at, at + length), next: at + length };
}

/** The text of a body, its gzip or brotli coding undone (the fuzz asks for both, SPEC §13). */
function decoded(raw: Buffer, coding: string | undefined): string {
  if (coding === 'gzip') return gunzipSync(raw).toString('utf8');
  if (coding === 'br') return brotliDecompressSync(raw).toString('utf8');
  return raw.toString('utf8');
}

function readChunks(bytes: Buffer, start: number): { raw: Buffer; next: number } | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isInteger(size)) return undefined;
    at = lineEnd + 2;
    if (size === 0) {
      const trailerEnd = bytes.indexOf('\r\n', at);
      return trailerEnd < 0 ? undefined : { raw: Buffer.concat(parts), next: trailerEnd + 2 };
    }
    if (at + size + 2 > bytes.length) return undefined;
    parts.push(bytes.subarray(at, at + size));
    at += size + 2;
  }
}
