// What every fuzz answer must be: a status from the allowed set, an X-Request-Id, an error in its surface's shape, no
// stack or internal name, well-formed XML.
import { assertWellFormedXml } from '../../helper.js';
import type { RawAnswer } from './wire.js';

const STATUSES = new Set([200, 201, 304, 400, 401, 403, 404]);

/** What no body may carry: stack frames, source paths, the runtime's error class names. */
const LEAKS =
  /\n\s+at \S|\.ts:\d|\.js:\d|node_modules|TypeError|ReferenceError|RangeError|SyntaxError|Cannot read prop|undefined is not|\bsrc\//;

const CATALOGUE_JSON = ['message', 'more_info', 'code'];
const CATALOGUE_XML =
  /^(<\?xml[^>]*\?>\s*)?<error>(<response_code>\d{3}<\/response_code>)?<message>[^<]*<\/message><more_info>[^<]*<\/more_info><code>\d+<\/code><\/error>\s*$/;

/** The problems of one answer to a request for `target` (empty when it is right). */
export function answerProblems(answer: RawAnswer, target: string, redirectable: boolean): string[] {
  const problems: string[] = [];
  const status = answer.status;
  // A 500 is in the allowed set, but no request a client can make should cause one: the fuzz counts it as a bug.
  const allowed = STATUSES.has(status) || (redirectable && (status === 302 || status === 303));
  if (!allowed) problems.push(`status ${status}`);
  if (!answer.headers['x-request-id']) problems.push('no X-Request-Id');
  if (LEAKS.test(answer.body)) problems.push(`an internal detail in the body: ${LEAKS.exec(answer.body)?.[0]}`);
  const type = answer.headers['content-type'] ?? '';
  try {
    assertWellFormedXml({ headers: { 'content-type': type }, body: answer.body });
  } catch (error) {
    problems.push((error as Error).message.slice(0, 300));
  }
  // A suppressed error is a 200 whose body starts with response_code.
  if (answer.body !== '' && (status >= 400 || /^(\{"response_code"|(<\?xml[^>]*\?>\s*)?<error>)/.test(answer.body)))
    problems.push(...errorShapeProblems(answer, type, target));
  return problems;
}

function errorShapeProblems(answer: RawAnswer, type: string, target: string): string[] {
  if (/[/+]xml\b/.test(type)) return CATALOGUE_XML.test(answer.body) ? [] : ['an XML error not in the catalogue shape'];
  // Portal pages answer errors as HTML pages (SPEC §12).
  if (type.startsWith('text/html')) return [];
  if (!type.startsWith('application/json')) return [`an error answered as ${type || 'no type'}`];
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return ['an error body that is not JSON'];
  }
  if (typeof body !== 'object' || body === null) return ['an error body that is not an object'];
  const record = body as Record<string, unknown>;
  const keys = Object.keys(record).filter((key) => key !== 'response_code');
  const catalogue =
    keys.join() === CATALOGUE_JSON.join() &&
    typeof record.message === 'string' &&
    typeof record.more_info === 'string' &&
    Number.isInteger(record.code) &&
    (record.response_code === undefined || /^\d{3}$/.test(String(record.response_code)));
  // The OAuth endpoints answer in RFC 6749's shape.
  const oauth =
    /^\/(oauth2|\.well-known)\//.test(target) &&
    typeof record.error === 'string' &&
    keys.every((key) => key === 'error' || key === 'error_description');
  return catalogue || oauth ? [] : [`an error body in neither shape: ${answer.body.slice(0, 200)}`];
}
