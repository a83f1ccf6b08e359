// Prepared statements cached by their SQL text: preparing (parsing and planning) costs more than running most of them.
import type Database from 'better-sqlite3';

type Statement = Database.Statement;

/** How a statement returns rows; a statement keeps its mode, so each mode has its own cache. */
type Mode = 'objects' | 'arrays' | 'first column';

/**
 * Statements kept per mode. Texts vary with the request (each `fields` order of a list, each
 * number of filter values), so a client could otherwise make the cache grow without end; past
 * the bound the oldest statement is dropped, and prepared again if it is wanted again.
 */
export const STATEMENTS_PER_MODE = 500;

export class Statements {
  private readonly caches: Record<Mode, Map<string, Statement>> = { objects: new Map(), arrays: new Map(), 'first column': new Map() };
  /** Statements handed out so far: lets tests check that loading associations is batched. */
  count = 0;

  constructor(private readonly db: Database.Database, private readonly bound = STATEMENTS_PER_MODE) {}

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
