// The failures of a database itself, as each backend classifies its driver's errors at its boundary.
//
// Only what changes the answer is told apart: the HTTP edge (http/error-handler.ts) maps both
// kinds to the catalogue's retryable 9002; any other error stays what it was (a bug: 9000).

/**
 * - `busy`: the database is there but could not take the work now (locked, out of connections,
 *   a conflict that kept failing): a retry in a moment is likely to succeed.
 * - `unavailable`: the database cannot be reached or used (closed, refused, shutting down, I/O
 *   errors, disk full): a retry may succeed once it is back.
 */
export type StorageErrorKind = 'busy' | 'unavailable';

export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly kind: StorageErrorKind,
    options: { cause: unknown },
  ) {
    super(
      `database ${kind}: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`,
      options,
    );
  }
}
