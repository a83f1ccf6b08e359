// Chooses the storage backend from the configuration: PostgreSQL when DATABASE_URL is set, else embedded SQLite.
import type { Config } from '../config.js';
import { SqliteStorage } from './sqlite/sqlite-storage.js';
import type { Storage } from './storage.js';

export async function createStorage(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Storage> {
  if (config.databaseUrl) {
    throw new Error('DATABASE_URL is set, but the PostgreSQL backend is not part of this release yet; unset it to use the embedded SQLite database.');
  }
  const storage = new SqliteStorage(config.dataDir);
  await storage.migrate();
  return storage;
}
