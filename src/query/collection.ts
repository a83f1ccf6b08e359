// Parses the query parameters of reads: limit, offset, filters, sort, q, and the accepted-parameter check.
import { ApiError } from '../errors.js';
import { sortableFields, type ResourceDef } from '../resources/definition.js';
import { lowerCase } from './lower-case.js';
import { checkXmlText } from './xml-text.js';

export type QueryParams = Readonly<Record<string, string | string[] | undefined>>;

export interface Filter {
  readonly field: string;
  /** Lower-cased values; an item matches when its field equals any of them, ignoring case. */
  readonly values: readonly string[];
  /**
   * The field holds only canonical lower-case values (an enum such as state), so it is compared
   * as it is, and its plain index serves.
   */
  readonly exact?: boolean;
}

export interface Sort {
  readonly field: string;
  readonly descending: boolean;
}

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
export const MAX_Q_LENGTH = 200;

/** The control parameters of SPEC §3: a body may carry them too, and they are never fields. */
export const CONTROL_PARAMS = ['method', 'suppress_response_codes', 'access_token'] as const;

/**
 * The control parameters every operation's query string accepts. `method` is not one: an
 * operation accepts it where its descriptor lists it (GET and POST on a path that offers more),
 * and an overridden request carries it to the operation it names.
 */
export const PATH_CONTROL_PARAMS = ['suppress_response_codes', 'access_token'] as const;

/**
 * Rejects any parameter outside `accepted` (the operation's, control ones included), naming it; `method` passes on an
 * overridden request. Every value must be text XML can carry (SPEC §13), whatever the parameter.
 */
export function checkKnownParams(params: QueryParams, accepted: readonly string[], overridden = false): void {
  for (const name of Object.keys(params)) {
    if (!accepted.includes(name) && !(overridden && name === 'method')) {
      // An overridden request that took its `method` from the query accepted it: the list names it.
      const named = overridden && params.method !== undefined && !accepted.includes('method');
      const listed = named ? [...accepted, 'method'] : accepted;
      throw new ApiError(
        'unknownParameter',
        `The query parameter "${name}" is not accepted here. Accepted parameters: ${listed.join(', ')}.`,
      );
    }
    const value = params[name];
    if (typeof value === 'string') checkXmlText(value, `The query parameter "${name}"`);
    else if (value !== undefined) for (const each of value) checkXmlText(each, `The query parameter "${name}"`);
  }
}

/**
 * The single value of a parameter; a repeated parameter is a 400 (a filter's says how to give several values), with
 * `headers` when given (the access token's challenge).
 */
export function single(
  params: QueryParams,
  name: string,
  filter = false,
  headers?: Readonly<Record<string, string>>,
): string | undefined {
  const value = params[name];
  if (Array.isArray(value)) {
    throw new ApiError(
      'parameterRepeated',
      `The query parameter "${name}" is given ${value.length} times; give it once` +
        (filter ? ` (several values go in one, separated by commas: ${name}=a,b).` : '.'),
      headers,
    );
  }
  return value;
}

const WHOLE_NUMBER = /^\d{1,9}$/;

export function parseLimit(params: QueryParams): number {
  const raw = single(params, 'limit');
  if (raw === undefined) return DEFAULT_LIMIT;
  const limit = WHOLE_NUMBER.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw new ApiError(
      'limitInvalid',
      `limit must be a whole number from 1 to ${MAX_LIMIT}, got "${raw}". Leave it out for the default of ` +
        `${DEFAULT_LIMIT}.`,
    );
  }
  return limit;
}

/**
 * Any whole number (SPEC §3: "integer ≥ 0"). Past 2^53 − 1 a number no longer has an exact JavaScript value; it reads
 * as that much, since every page so deep is empty in any store.
 */
export function parseOffset(params: QueryParams): number {
  const raw = single(params, 'offset');
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw)) {
    throw new ApiError(
      'offsetInvalid',
      `offset must be a whole number, 0 or more, got "${raw}". Leave it out to start at the first item.`,
    );
  }
  return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
}

/**
 * The most alternatives one filter takes. Each is an index range read on its own (a page merges their first items):
 * thousands of them in a URL cost the database a read each, on /adoptions without a token too.
 */
const FILTER_VALUES_MOST = 20;

/** The resource's filters present in `params`; enum fields check their values. */
export function parseFilters(def: ResourceDef, params: QueryParams): Filter[] {
  const filters: Filter[] = [];
  for (const [param, field] of Object.entries(def.filters)) {
    const raw = single(params, param, true);
    if (raw === undefined) continue;
    const values = [
      ...new Set(
        raw
          .split(',')
          .map((value) => lowerCase(value.trim()))
          .filter((value) => value !== ''),
      ),
    ];
    if (values.length === 0) {
      throw new ApiError(
        'filterInvalid',
        `The filter ${param} is empty. Give one value, or several separated by commas, or leave it out.`,
      );
    }
    if (values.length > FILTER_VALUES_MOST) {
      throw new ApiError(
        'filterInvalid',
        `The filter ${param} has ${values.length} different values; the most is ${FILTER_VALUES_MOST}. Ask for ` +
          'fewer at a time, or leave the filter out.',
      );
    }
    const allowed = def.fields[field]?.values;
    const wrong = allowed && values.find((value) => !allowed.includes(value));
    if (wrong) {
      throw new ApiError(
        'filterInvalid',
        `The filter ${param} has the value "${wrong}", which is not one of: ${allowed.join(', ')}.`,
      );
    }
    filters.push({ field, values, ...(allowed ? { exact: true } : {}) });
  }
  return filters;
}

/** `sortable` narrows the fields (a public view sorts only by what it shows). */
export function parseSort(
  def: ResourceDef,
  params: QueryParams,
  sortable: readonly string[] = sortableFields(def),
): Sort | undefined {
  const raw = single(params, 'sort');
  if (raw === undefined) return undefined;
  const descending = raw.startsWith('-');
  const field = descending ? raw.slice(1) : raw;
  if (!sortable.includes(field)) {
    throw new ApiError(
      'sortInvalid',
      `sort cannot order by "${raw}". Sortable fields of ${def.name}: ${sortable.join(', ')}; put - in front for ` +
        `descending order (sort=-name).`,
    );
  }
  return { field, descending };
}

/** Whether `raw` is search text (SPEC §5): 1 to MAX_Q_LENGTH characters, not only spaces. */
export function isSearchText(raw: string): boolean {
  return raw.trim() !== '' && [...raw].length <= MAX_Q_LENGTH;
}

export function parseQ(params: QueryParams): string | undefined {
  const raw = single(params, 'q');
  if (raw === undefined) return undefined;
  if (!isSearchText(raw)) {
    const length = [...raw].length;
    throw new ApiError(
      'searchInvalid',
      `q must be search text of 1 to ${MAX_Q_LENGTH} characters, got ` +
        `${raw.trim() === '' ? 'an empty value' : `${length} characters`}.`,
    );
  }
  return raw;
}
