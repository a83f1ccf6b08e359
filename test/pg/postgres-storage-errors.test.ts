// PostgreSQL failures classified at the connection (StorageError) and answered 9002 at the HTTP edge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { postgresFailure } from '../../src/storage/postgres/connection.js';
import { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import { MissingReferences, StorageError } from '../../src/storage/storage-error.js';
import { BASE, newAccount } from '../helper.js';
import { createPostgresStorage, skipWithoutPostgres, TEST_DATABASE_URL } from './databases.js';

const skip = skipWithoutPostgres;

/** A URL of the test server with a port where nothing listens. */
async function deadUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const url = new URL(TEST_DATABASE_URL!);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}

/** What the driver rejects `sql` with, on a connection of its own. */
async function driverError(sql: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(sql);
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => undefined);
  }
  throw new Error(`${sql} did not fail`);
}

test(
  'postgresFailure: connection errors and shutdowns are unavailable, too many connections busy, SQL errors unchanged',
  { skip },
  async () => {
    const terminated = await driverError('SELECT pg_terminate_backend(pg_backend_pid())');
    assert.equal((terminated as { code?: string }).code, '57P01');
    const refused = await new pg.Client({ connectionString: await deadUrl() }).connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    const syntax = await driverError('SELEC 1');
    const cases: Array<[unknown, string | undefined]> = [
      [terminated, 'unavailable'],
      [refused, 'unavailable'],
      [new Error('Connection terminated unexpectedly'), 'unavailable'],
      [new Error('timeout exceeded when trying to connect'), 'unavailable'],
      [Object.assign(new pg.DatabaseError('sorry, too many clients already', 0, 'error'), { code: '53300' }), 'busy'],
      [Object.assign(new pg.DatabaseError('could not connect', 0, 'error'), { code: '08006' }), 'unavailable'],
      [Object.assign(new pg.DatabaseError('bind message has 1 parameters', 0, 'error'), { code: '08P01' }), undefined],
      [syntax, undefined],
      [new MissingReferences('ownerId', 'owners', ['nobody']), undefined],
    ];
    for (const [error, kind] of cases) {
      const classified = postgresFailure(error);
      if (kind === undefined) assert.equal(classified, error);
      else {
        assert.ok(classified instanceof StorageError, `${String(error)} is a StorageError`);
        assert.equal(classified.kind, kind);
      }
    }
  },
);

test('a PostgreSQL server that cannot be reached answers 500 with the retryable 9002', { skip }, async (t) => {
  const storage = new PostgresStorage(await deadUrl());
  const app = await buildApp(loadConfig({ PUBLIC_URL: BASE, LOG_LEVEL: 'silent' }), { storage, logger: false });
  t.after(() => app.close());
  for (const method of ['GET', 'POST'] as const) {
    const response = await app.inject({
      method,
      url: '/v2/dogs',
      headers: { authorization: 'Bearer some-token' },
      payload: method === 'POST' ? { name: 'Rex' } : undefined,
    });
    assert.equal(response.statusCode, 500);
    const body = response.json();
    assert.equal(body.code, 9002);
    assert.match(body.message, /cannot reach its database right now/);
    assert.equal(response.headers['retry-after'], undefined);
  }
});

test('a closed PostgreSQL storage answers 500 with 9002 for reads and writes', { skip }, async (t) => {
  const { storage, database } = await createPostgresStorage();
  const app = await buildApp(loadConfig({ PUBLIC_URL: BASE, LOG_LEVEL: 'silent' }), { storage, logger: false });
  t.after(async () => {
    await app.close();
    await database.drop();
  });
  const { token } = await newAccount(app, storage);
  const headers = { authorization: `Bearer ${token}` };
  // The first request caches the token (5 s), so later ones reach the operation's own queries.
  assert.equal((await app.inject({ url: '/v2/dogs', headers })).statusCode, 200);
  await storage.close();
  for (const request of [
    { url: '/v2/dogs' },
    { url: '/v2/dogs/some-id' },
    { method: 'POST' as const, url: '/v2/dogs', payload: { name: 'Rex' } },
  ]) {
    const response = await app.inject({ ...request, headers });
    assert.equal(response.statusCode, 500, `${request.url}: ${response.body}`);
    assert.equal(response.json().code, 9002);
  }
});
