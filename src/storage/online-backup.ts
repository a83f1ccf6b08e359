// SIGUSR2 on SQLite: a consistent copy of the database in <DATA_DIR>/backups while the service goes on answering.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/** What a backup needs of the storage: SQLite's online backup into a file, resolving with the pages copied. */
export interface BackupSource {
  backup(file: string): Promise<number>;
}

/**
 * Writes `<dir>/registry-<UTC time>.sqlite` on request, one backup at a time. The copy is written under a `.partial`
 * name and renamed once whole, so a file without that suffix is always a complete database that can be copied off
 * the machine with a plain `cp` (docs/deployment.md, Backups).
 */
export class OnlineBackup {
  private running = false;

  constructor(
    private readonly source: BackupSource,
    private readonly dir: string,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Runs one backup and resolves with its file; undefined when one was already running or it failed (logged). */
  async run(): Promise<string | undefined> {
    if (this.running) {
      this.log.warn('backup requested while one is running; this request is ignored');
      return undefined;
    }
    this.running = true;
    const stamp = new Date(this.clock())
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const file = path.join(this.dir, `registry-${stamp}.sqlite`);
    const partial = `${file}.partial`;
    const started = performance.now();
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      this.log.info({ file }, 'backup started: the service goes on answering');
      const pages = await this.source.backup(partial);
      fs.renameSync(partial, file);
      this.log.info({ file, pages, ms: Math.round(performance.now() - started) }, 'backup written');
      return file;
    } catch (error) {
      removeQuietly(partial);
      this.log.error({ err: error, file }, 'backup failed; nothing was written');
      return undefined;
    } finally {
      this.running = false;
    }
  }
}

/** Removes what a failed backup left, if anything: a directory that could not be written holds nothing to remove. */
function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // ENOTDIR, EACCES: there is no partial file there.
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** SIGUSR2's work (server.ts): an online backup on SQLite, resolving with its file; a pointer on PostgreSQL. */
    readonly databaseBackup: () => Promise<string | undefined>;
  }
}
