// The API versions: the leftmost path segment `v<N>`; v2 is current, v1 the earlier one that stays.
import { ApiError } from '../errors.js';
import { resources } from '../resources/index.js';

export const VERSIONS = [1, 2] as const;
export type Version = (typeof VERSIONS)[number];
export const CURRENT_VERSION: Version = 2;

const VERSION_SEGMENT = /^v\d+([.,]\d+)*$/i;

/**
 * The error for a path no route matched: no version (400, showing the path to use), a
 * version the service does not offer (404 naming those it does), or no such route (404).
 */
export function unmatchedPathError(pathname: string): ApiError {
  const first = pathname.split('/')[1] ?? '';
  if (!VERSION_SEGMENT.test(first)) {
    const suggested = `/v${CURRENT_VERSION}${pathname === '/' ? '/dogs' : pathname}`;
    return new ApiError('versionMissing', `The path ${pathname} has no version. Every API path starts with the version: use ${suggested} (v${CURRENT_VERSION} is current, v1 is also available).`);
  }
  const supported = VERSIONS.map((version) => `v${version}`).join(', ');
  if (!VERSIONS.some((version) => first === `v${version}`)) {
    return new ApiError('versionUnknown', `The version "${first}" does not exist. Supported versions: ${supported}; write them as /v2/…, with no dot or minor number.`);
  }
  const collections = resources.map((def) => `/${first}/${def.name}`).join(', ');
  return new ApiError('routeNotFound', `There is nothing at ${pathname}. The collections are ${collections}, each with /<id> for one item and /count; there are also /${first}/search, /${first}/convert and /${first}/adoptions. See the API reference.`);
}
