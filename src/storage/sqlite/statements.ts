// Prepared statements cached by their SQL text: preparing (parsing and planning) costs more than running most of them.
import Database from 'better-sqlite3';
import { StorageError, type StorageErrorKind } from '../storage-error.js';

type Statement = Database.Statement;

/** How a statement returns rows; a statement keeps its mode, so each mode has its own cache. */
type Mode = 'objects' | 'arrays' | 'first column';

/**
 * Statements kept per mode. Texts vary with the request (each `fields` order of a list, each
 * number of filter values), so a client could otherwise make the cache grow without end; past
 * the bound the oldest statement is dropped, and prepared again if it is wanted again.
 */
const STATEMENTS_PER_MODE = 500;

/** better-sqlite3's error codes (primary part) that mean the database itself failed, not the statement. */
const FAILURES: Readonly<Record<string, StorageErrorKind>> = {
  SQLITE_BUSY: 'busy',
  SQLITE_LOCKED: 'busy',
  SQLITE_IOERR: 'unavailable',
  SQLITE_CANTOPEN: 'unavailable',
  SQLITE_FULL: 'unavailable',
  SQLITE_READONLY: 'unavailable',
};

/**
 * A failure of `db` itself as a StorageError; any other error (a bug, an ApiError thrown inside a
 * write) as it was. A closed database makes better-sqlite3 throw a TypeError, told by the state.
 */
export function sqliteFailure(db: Database.Database, error: unknown): unknown {
  let kind: StorageErrorKind | undefined;
  if (error instanceof Database.SqliteError) kind = FAILURES[error.code.split('_', 2).join('_')];
  else if (error instanceof TypeError && !db.open) kind = 'unavailable';
  return kind ? new StorageError(kind, { cause: error }) : error;
}

export class Statements {
  private readonly caches: Record<Mode, Map<string, Statement>> = {
    objects: new Map(),
    arrays: new Map(),
    'first column': new Map(),
  };
  /** Statements handed out so far: lets tests check that loading associations is batched. */
  count = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly bound = STATEMENTS_PER_MODE,
  ) {}

  /** The statement of `sql`, returning rows as objects. */
  get(sql: string): Statement {
    return this.cached('objects', sql);
  }

  /** The statement of `sql`, returning rows as arrays of column values (cheaper to read). */
  raw(sql: string): Statement {
    return this.cached('arrays', sql);
  }

  /** The statement of `sql`, returning each row's first column alone. */
  pluck(sql: string): Statement {
    return this.cached('first column', sql);
  }

  /** What a read that threw should throw instead: see sqliteFailure. */
  failure(error: unknown): unknown {
    return sqliteFailure(this.db, error);
  }

  private cached(mode: Mode, sql: string): Statement {
    this.count += 1;
    const cache = this.caches[mode];
    let statement = cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (mode === 'arrays') statement.raw(true);
      if (mode === 'first column') statement.pluck(true);
      if (cache.size >= this.bound) cache.delete(cache.keys().next().value!);
      cache.set(sql, statement);
    }
    return statement;
  }
}
