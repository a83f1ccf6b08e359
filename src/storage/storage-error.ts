// The failures of a database itself, as each backend classifies its driver's errors at its boundary.
//
// Only what changes the answer is told apart: the HTTP edge (http/error-handler.ts) maps a
// StorageError of either kind to the catalogue's retryable 9002 and MissingReferences to 3009;
// any other error stays what it was (a bug: 9000). The storage itself knows no catalogue.

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

/** A write named ids that do not exist in its tenant (or that it cannot see): the caller's mistake. */
export class MissingReferences extends Error {
  override readonly name = 'MissingReferences';

  constructor(
    /** The field that holds the references (`ownerId`, `foodIds`). */
    readonly field: string,
    /** The resource they should name. */
    readonly target: string,
    readonly ids: readonly string[],
  ) {
    super(`${field} refers to ${target} that do not exist: ${ids.join(', ')}`);
  }
}

/** What a storage call throws besides bugs: the small union the HTTP edge maps to the catalogue. */
export type StorageFailure = StorageError | MissingReferences;
