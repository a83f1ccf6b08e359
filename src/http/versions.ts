// The API versions: the leftmost path segment `v<N>`; v2 is current, v1 the earlier one that stays.
import { ApiError } from '../errors.js';
import { resources } from '../resources/index.js';

export const VERSIONS = [1, 2] as const;
export type Version = (typeof VERSIONS)[number];
export const CURRENT_VERSION: Version = 2;

const VERSION_SEGMENT = /^v\d+([.,]\d+)*$/i;

/** The first path segments of the API after its version: a path starting with one of them lacks only the version. */
const API_NAMES: ReadonlySet<string> = new Set([...resources.map((def) => def.name), 'search', 'convert', 'adoptions']);

/** The first segment of a path, up to its first dot: `dogs` of `/dogs.xml?q=1`. */
function firstName(url: string): string {
  const end = url.slice(1).search(/[/?.]/);
  return end === -1 ? url.slice(1) : url.slice(1, end + 1);
}

/** Whether a path (or URL) starts with an API name without a version before it: `/dogs`, `/search.xml?q=rex`. */
export function namesApiWithoutVersion(url: string): boolean {
  return API_NAMES.has(firstName(url));
}

/** A path with no version: a 400 that shows the versioned path to use (SPEC §8). */
export function versionMissingError(pathname: string): ApiError {
  const suggested = `/v${CURRENT_VERSION}${pathname === '/' ? '/dogs' : pathname}`;
  return new ApiError(
    'versionMissing',
    `The path ${pathname} has no version. Every API path starts with the version: use ${suggested} ` +
      `(v${CURRENT_VERSION} is current, v1 is also available).`,
  );
}

/** A path under a version the service offers that names nothing: a 404 listing what there is. */
export function routeNotFoundError(pathname: string, version: number): ApiError {
  const collections = resources.map((def) => `/v${version}/${def.name}`).join(', ');
  return new ApiError(
    'routeNotFound',
    `There is nothing at ${pathname}. The collections are ${collections}, each with /<id> for one item and ` +
      `/count; there are also /v${version}/search, /v${version}/convert and /v${version}/adoptions. See the API ` +
      `reference.`,
  );
}

/**
 * The error for a path outside every surface (SPEC §8): a version-like first segment the service
 * does not offer is 1001; an API name without its version (`/dogs`) is 1000 with the path to use;
 * anything else (`/metrics.xml`, `/robots.txt`) is simply not there, 1002, naming the surfaces.
 */
/** Whether a path's first segment is a version (`/v2/…`, `/v9`, `/v1.2`): an API path, whatever its host. */
export function namesVersion(pathname: string): boolean {
  return VERSION_SEGMENT.test(pathname.split('/')[1] ?? '');
}

export function unmatchedPathError(pathname: string, portalUrl: string): ApiError {
  const first = pathname.split('/')[1] ?? '';
  if (VERSION_SEGMENT.test(first)) {
    const offered = VERSIONS.find((version) => first === `v${version}`);
    if (offered !== undefined) return routeNotFoundError(pathname, offered);
    const supported = VERSIONS.map((version) => `v${version}`).join(', ');
    return new ApiError(
      'versionUnknown',
      `The version "${first}" does not exist. Supported versions: ${supported}; write them as /v2/…, with no dot ` +
        `or minor number.`,
    );
  }
  if (namesApiWithoutVersion(pathname)) return versionMissingError(pathname);
  return new ApiError(
    'routeNotFound',
    `There is nothing at ${pathname}. The API is under /v${CURRENT_VERSION}/ (for example ` +
      `/v${CURRENT_VERSION}/dogs), the developer portal at ${portalUrl}, and the service's own endpoints are ` +
      `/healthz, /readyz and /metrics.`,
  );
}
