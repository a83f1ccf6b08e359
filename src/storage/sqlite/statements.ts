// Prepared statements cached by their SQL text: preparing (parsing and planning) costs more than running most of them.
import type Database from 'better-sqlite3';

type Statement = Database.Statement;

export class Statements {
  private readonly objects = new Map<string, Statement>();
  private readonly arrays = new Map<string, Statement>();
  /** Statements handed out so far: lets tests check that loading associations is batched. */
  count = 0;

  constructor(private readonly db: Database.Database) {}

  /** The statement of `sql`, returning rows as objects. */
  get(sql: string): Statement {
    return this.cached(this.objects, sql, false);
  }

  /** The statement of `sql`, returning rows as arrays of column values (cheaper to read). */
  raw(sql: string): Statement {
    return this.cached(this.arrays, sql, true);
  }

  private cached(cache: Map<string, Statement>, sql: string, raw: boolean): Statement {
    this.count += 1;
    let statement = cache.get(sql);
    if (!statement) {
      statement = raw ? this.db.prepare(sql).raw(true) : this.db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  }
}
