// Turns a create or update body into clean field values: trims, clears blanks, validates by the resource's schema.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ApiError } from '../errors.js';
import { READ_ONLY_FIELDS, type ResourceDef, type WriteValues } from '../resources/definition.js';
import { createSchema, MAX_REFS, MAX_TEXT_LENGTH, updateSchema } from '../resources/resource-schemas.js';
import { CONTROL_PARAMS } from './collection.js';
import { checkXmlText } from './xml-text.js';

export type BodyMode = 'create' | 'update';

const addFormats = addFormatsModule as unknown as (ajv: Ajv, formats: string[]) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: false, strict: false }), ['email', 'date-time']);
const validators = new Map<string, ValidateFunction>();

function validatorFor(def: ResourceDef, mode: BodyMode): ValidateFunction {
  const key = `${def.name}:${mode}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(mode === 'create' ? createSchema(def) : updateSchema(def));
    validators.set(key, validate);
  }
  return validate;
}

const IGNORED = new Set<string>([...CONTROL_PARAMS, ...READ_ONLY_FIELDS]);
// Text fields hold one line: XML could carry a tab or a line break, but a name or a place has none.
const LINE_BREAK_OR_TAB = /[\t\n\r]/;

/** Validates a parsed body (JSON object or form fields); returns only the fields it sets. */
export function readInput(
  def: ResourceDef,
  body: Readonly<Record<string, unknown>>,
  mode: BodyMode,
  json = false,
): WriteValues {
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(body)) {
    if (IGNORED.has(name)) continue;
    if (!Object.hasOwn(def.fields, name)) {
      throw new ApiError(
        'bodyFieldUnknown',
        `The body has the field "${name}", which ${def.name} do not have. Fields you can write: ` +
          `${Object.keys(def.fields).join(', ')}.`,
      );
    }
    values[name] =
      def.fields[name]!.kind === 'refs' ? normalizeIds(name, body[name], json) : normalize(name, body[name]);
  }
  const validate = validatorFor(def, mode);
  if (!validate(values)) throw toApiError(def, values, validate.errors?.[0]);
  return values as WriteValues;
}

/** Strings are trimmed; a blank string clears the field (null). Other kinds are left to the schema. */
function normalize(name: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  checkXmlText(value, `The field "${name}"`);
  // Trimmed first (SPEC §1): a line break at either end goes with the spaces; one inside the text is refused.
  const trimmed = value.trim();
  if (LINE_BREAK_OR_TAB.test(trimmed)) {
    throw new ApiError(
      'fieldInvalid',
      `The field "${name}" contains a control character (a tab or a line break). Send plain text on one line.`,
    );
  }
  return trimmed === '' ? null : trimmed;
}

/**
 * A set of ids: a JSON array of strings, or one comma-separated string (a form field, or an overridden GET's query);
 * null or blank is the empty set. A form's blank entries (`a,,b`) are left out; an array's entry that is not an id
 * (null, blank, a number) is kept for the schema to refuse, and so is a string in a JSON body (SPEC §1: an array).
 */
function normalizeIds(name: string, value: unknown, json: boolean): unknown {
  if (value === null) return [];
  if (json && typeof value === 'string') return value.trim() === '' ? [] : value;
  const form = typeof value === 'string';
  const list = form ? value.split(',') : value;
  if (!Array.isArray(list)) return list;
  const ids: unknown[] = [];
  for (const entry of list) {
    const id = typeof entry === 'string' ? ((normalize(name, entry) as string | null) ?? (form ? null : '')) : entry;
    if ((id !== null || !form) && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

function toApiError(def: ResourceDef, values: Record<string, unknown>, error: ErrorObject | undefined): ApiError {
  if (!error) return new ApiError('fieldInvalid', 'The body is not valid.');
  if (error.keyword === 'required') {
    const name = (error.params as { missingProperty: string }).missingProperty;
    return new ApiError('fieldRequired', `The field "${name}" is required: give it a non-empty value.`);
  }
  const name = error.instancePath.split('/')[1] ?? '';
  const field = def.fields[name];
  const value = values[name];
  if (field?.kind === 'refs') {
    return new ApiError(
      'fieldInvalid',
      `The field "${name}" must be a list of ${field.ref} ids: a JSON array of strings, or the ids separated by ` +
        `commas in a form, at most ${MAX_REFS}. Send an empty list or null to clear it.`,
    );
  }
  if (field?.values) {
    // A JSON body may send an object whose toString is no function: String() of it throws, JSON shows it. A number
    // too large for a double (1e999) parsed as Infinity, which JSON writes as null: it is named, not shown.
    const shown =
      typeof value === 'string'
        ? `"${value}"`
        : typeof value === 'number' && !Number.isFinite(value)
          ? 'a number out of range'
          : JSON.stringify(value);
    return new ApiError(
      'valueNotAllowed',
      `The field "${name}" must be one of: ` +
        `${field.values.join(', ')}${value === null ? '; it cannot be empty or null' : `, got ${shown}`}.`,
    );
  }
  if (value === null && field?.required) {
    return new ApiError('fieldRequired', `The field "${name}" is required and cannot be empty or null.`);
  }
  if (typeof value === 'string' && [...value].length > MAX_TEXT_LENGTH) {
    return new ApiError(
      'fieldTooLong',
      `The field "${name}" is ${[...value].length} characters long; the most is ${MAX_TEXT_LENGTH}.`,
    );
  }
  if (field?.kind === 'email' && typeof value === 'string') {
    return new ApiError(
      'emailInvalid',
      `The field "${name}" must be an email address such as ann@example.com, got "${value}".`,
    );
  }
  if (field?.kind === 'ref' && typeof value === 'string') {
    return new ApiError(
      'referenceNotFound',
      `The field "${name}" refers to "${value}", which is not an id of ${field.ref}. Ids are made of letters, ` +
        `digits, _ and -.`,
    );
  }
  return new ApiError(
    'fieldInvalid',
    `The field "${name}" must be text (a string)${field?.required ? '' : ' or null to clear it'}, got ` +
      `${describe(value)}.`,
  );
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list (was the field given twice?)';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
