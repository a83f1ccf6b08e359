// The one rule for an email address (SPEC §1: "`email` must be an address"): ajv-formats' `email`, the format the
// resources' schemas check an owner's email with, so that the portal's sign-up takes what the API takes.
import { fullFormats } from 'ajv-formats/dist/formats.js';

const EMAIL = fullFormats.email as RegExp;

/** Whether text is an email address as the API's `email` fields take it, at most 254 characters (RFC 5321). */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}
