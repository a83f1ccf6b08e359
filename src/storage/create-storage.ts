// Chooses the storage backend from the configuration: PostgreSQL when DATABASE_URL is set, else embedded SQLite.
import { redactedUrl, type Config } from '../config.js';
import { PostgresStorage } from './postgres/postgres-storage.js';
import { SqliteStorage } from './sqlite/sqlite-storage.js';
import type { Storage } from './storage.js';

/**
 * Opens and migrates the configured database; a database that cannot be reached stops the start with a clear message.
 */
export async function createStorage(
  config: Pick<Config, 'dataDir' | 'databaseUrl'> & Partial<Pick<Config, 'pgPoolSize' | 'searchCache'>>,
): Promise<Storage> {
  const keptSearches = config.searchCache === false ? 0 : undefined;
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.pgPoolSize, keptSearches);
  const storage = new SqliteStorage(config.dataDir, keptSearches);
  await storage.migrate();
  return storage;
}

async function openPostgres(
  databaseUrl: string,
  poolSize: number | undefined,
  keptSearches: number | undefined,
): Promise<Storage> {
  const storage = new PostgresStorage(databaseUrl, poolSize, keptSearches);
  try {
    await storage.migrate();
  } catch (error) {
    await storage.close().catch(() => undefined);
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
    throw new Error(
      `DATABASE_URL is set, but the PostgreSQL database at ${redactedUrl(databaseUrl)} could not be opened and ` +
        `migrated: ${reason}. Check that the server is running, that the URL (host, port, database, user, ` +
        `password) is right and that the user may create tables, or unset DATABASE_URL to use the embedded SQLite ` +
        `database.`,
      { cause: error },
    );
  }
  return storage;
}
