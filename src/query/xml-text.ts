// The one rule for text XML 1.0 cannot carry (SPEC §13), checked on every input, and the escape for input a message echoes.
import { ApiError } from '../errors.js';

/**
 * C0 controls but tab, LF and CR; U+FFFE and U+FFFF; a high surrogate with no low one after it, a low one with no high
 * one before it. C1 controls and the other noncharacters are XML 1.0 characters, so they pass.
 */
const XML_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- matching control characters is this pattern's whole job
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with text XML 1.0 cannot carry, naming where it came from; undefined when XML can carry it. */
export function xmlTextProblem(text: string, where: string): string | undefined {
  const found = XML_FORBIDDEN.exec(text);
  if (found === null) return undefined;
  return (
    `${where} contains the character ${codePoint(found[0])} at position ${position(text, found.index)}, which XML cannot ` +
    'carry. Remove it: control characters other than tab, line feed and carriage return, U+FFFE, U+FFFF and ' +
    'unpaired surrogates are refused.'
  );
}

/** Refuses text XML 1.0 cannot carry, naming where it came from (`the query parameter "q"`, `the field "name"`). */
export function checkXmlText(text: string, where: string): void {
  const problem = xmlTextProblem(text, where);
  if (problem !== undefined) throw new ApiError('characterNotAllowed', problem);
}

const XML_FORBIDDEN_ALL = new RegExp(XML_FORBIDDEN.source, 'g');

/** Text with each character XML cannot carry written as \uXXXX; tab, line feed and carriage return stay. */
export function escapeForbidden(text: string): string {
  return XML_FORBIDDEN.test(text) ? text.replace(XML_FORBIDDEN_ALL, (char) => `\\u${hex(char)}`) : text;
}

// Every control character (C0, DEL, C1), U+FFFE, U+FFFF and unpaired surrogates: what an echo must not carry raw.
const UNECHOABLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is this pattern's whole job
  /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const UNECHOABLE_ONE = new RegExp(UNECHOABLE.source);

/** Text a message repeats from the request, with each control or unpaired character written as \uXXXX. */
export function escapeEcho(text: string): string {
  return UNECHOABLE_ONE.test(text) ? text.replace(UNECHOABLE, (char) => `\\u${hex(char)}`) : text;
}

/** The place of a character, counted in characters (code points) from 1, as the length limit counts them. */
function position(text: string, index: number): number {
  let at = 1;
  for (let unit = 0; unit < index; unit += 1) {
    const code = text.charCodeAt(unit);
    // A surrogate pair is one character: its high half counts, its low half does not.
    if (code < 0xdc00 || code > 0xdfff || unit === 0 || (text.charCodeAt(unit - 1) & 0xfc00) !== 0xd800) at += 1;
  }
  return at;
}

function codePoint(char: string): string {
  return `U+${hex(char)}`;
}

function hex(char: string): string {
  return char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
}
