// The two storage backends under the bench: each seeds a size once (kept under .bench-data), and hands each run a
// fresh copy of it, so that one run's POSTs never reach the next.
import fs from 'node:fs';
import path from 'node:path';
import postgresJs from 'postgres';
import { createStorage } from '../src/storage/create-storage.js';
import type { Storage } from '../src/storage/storage.js';
import { DATA_DIR } from './harness.js';
import { POSTGRES_DIR, type BenchPostgres } from './postgres.js';
import { seed, type Seeded } from './seed.js';

export interface Backend {
  readonly name: 'SQLite' | 'PostgreSQL';
  /** The data of `size` dogs, seeded first when it is not kept yet (then `seedSeconds` says how long that took). */
  seeded(size: number): Promise<Seeded & { seedSeconds?: number }>;
  /** A fresh copy of the seeded size for one server (`copy` names it): the server's DATA_DIR and DATABASE_URL. */
  freshCopy(size: number, copy: string): Promise<Record<string, string>>;
  /**
   * After an operation that wrote, on the copy `freshCopy` gave: what the database would do about it a little later,
   * done now, so that it does not fall on the next operation's slices.
   */
  afterWrites?(copy: Record<string, string>): Promise<void>;
}

/** Seeds through `open`'s storage, timed; `open` gets a storage on empty, migrated data. */
async function seedTimed(
  size: number,
  open: () => Promise<Storage>,
  where: string,
): Promise<Seeded & { seedSeconds: number }> {
  console.log(
    `seeding ${size.toLocaleString('en-US')} dogs and ${(size / 5).toLocaleString('en-US')} owners in ${where} ...`,
  );
  const started = process.hrtime.bigint();
  const storage = await open();
  try {
    const seeded = await seed(storage, size);
    const seedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(`seeded ${size.toLocaleString('en-US')} dogs in ${seedSeconds.toFixed(1)} s`);
    return { ...seeded, seedSeconds };
  } finally {
    await storage.close();
  }
}

/** The seed's ids and client, kept next to it; absent until the seed is complete. */
function readInfo(file: string): Seeded | undefined {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Seeded) : undefined;
}

function writeInfo(file: string, { dogId, ownerId, clientId, clientSecret }: Seeded): void {
  fs.writeFileSync(file, JSON.stringify({ dogId, ownerId, clientId, clientSecret }));
}

/** SQLite: each size is a folder (.bench-data/seed-sqlite-<size>), copied file by file for each server. */
export const sqlite: Backend = {
  name: 'SQLite',
  async seeded(size) {
    const dir = path.join(DATA_DIR, `seed-sqlite-${size}`);
    const info = readInfo(path.join(dir, 'seeded.json'));
    if (info) {
      // Opened once so that a migration added since the seed runs here, once, and not in every server's start.
      await (await createStorage({ dataDir: dir })).close();
      return info;
    }
    // Seeded aside and renamed when complete: an interrupted seed is never taken for a whole one.
    const partial = `${dir}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    const seeded = await seedTimed(size, () => createStorage({ dataDir: partial }), partial);
    writeInfo(path.join(partial, 'seeded.json'), seeded);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(partial, dir);
    return seeded;
  },
  async freshCopy(size, copy) {
    const seedDir = path.join(DATA_DIR, `seed-sqlite-${size}`);
    const runDir = path.join(DATA_DIR, `run-sqlite-${copy}`);
    fs.rmSync(runDir, { recursive: true, force: true });
    fs.mkdirSync(runDir, { recursive: true });
    for (const file of fs.readdirSync(seedDir).filter((name) => name.startsWith('registry.sqlite'))) {
      fs.copyFileSync(path.join(seedDir, file), path.join(runDir, file));
    }
    return { DATA_DIR: runDir };
  },
};

/**
 * PostgreSQL: each size is a database (seed_<size>) of the bench's cluster, and each server's copy a database made
 * from it as a template (CREATE DATABASE … TEMPLATE, STRATEGY FILE_COPY: the files copied after a checkpoint, seconds
 * for a million dogs, where seeding again would take minutes and WAL_LOG would write the whole copy to the WAL).
 */
export function postgres(server: BenchPostgres): Backend {
  const infoFile = (size: number): string => path.join(POSTGRES_DIR, `seed_${size}.json`);
  return {
    name: 'PostgreSQL',
    async seeded(size) {
      const name = `seed_${size}`;
      const info = readInfo(infoFile(size));
      if (info && (await server.exists(name))) {
        await (await createStorage({ dataDir: DATA_DIR, databaseUrl: server.url(name) })).close();
        return info;
      }
      const partial = `${name}_partial`;
      await server.admin(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`, `CREATE DATABASE ${partial}`);
      // The seed's own sessions do not wait for each commit's flush: only the data counts, not its durability.
      const seedUrl = server.url(partial, 'synchronous_commit=off');
      const seeded = await seedTimed(
        size,
        () => createStorage({ dataDir: DATA_DIR, databaseUrl: seedUrl, pgPoolSize: 16 }),
        `database ${partial}`,
      );
      await analyze(seedUrl);
      await server.admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `ALTER DATABASE ${partial} RENAME TO ${name}`);
      writeInfo(infoFile(size), seeded);
      return seeded;
    },
    async freshCopy(size, copy) {
      const name = `run_${copy.replace(/\W/g, '_')}`;
      await server.admin(
        `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
        `CREATE DATABASE ${name} TEMPLATE seed_${size} STRATEGY FILE_COPY`,
      );
      const dataDir = path.join(DATA_DIR, `run-postgres-${copy}`);
      fs.mkdirSync(dataDir, { recursive: true });
      return { DATA_DIR: dataDir, DATABASE_URL: server.url(name) };
    },
    // POST's slices write tens of thousands of dogs and their search keys, and autovacuum's VACUUM ANALYZE of them
    // (seen 17 and 29 s after) runs on the server's core: in two full runs the page's p99 after them was 76–84 ms and
    // the filter's 36–41 ms; with this, 13.5 and 13.3 ms.
    async afterWrites(copy) {
      await analyze(copy.DATABASE_URL!);
    },
  };
}

/**
 * VACUUM ANALYZE after the load, as autovacuum would do a little later: the runs measure a database in its steady
 * state (statistics, visibility map), and the template hands both to every copy.
 */
async function analyze(url: string): Promise<void> {
  const client = postgresJs(url, { max: 1, onnotice: () => {} });
  try {
    await client`VACUUM (ANALYZE)`;
  } finally {
    await client.end();
  }
}
