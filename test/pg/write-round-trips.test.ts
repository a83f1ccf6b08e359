// What each write costs PostgreSQL in round trips (docs/performance.md), counted on the wire through a proxy, and what
// a pipelined transaction does when one of its statements fails.
import net from 'node:net';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import { owners } from '../../src/resources/owners.js';
import { Connection } from '../../src/storage/postgres/connection.js';
import { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import type { TenantScope } from '../../src/storage/storage.js';
import { createDatabase, skipWithoutPostgres } from './databases.js';

const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };
const skip = skipWithoutPostgres;

/**
 * A TCP proxy in front of PostgreSQL that counts round trips: each time the client sends after the server last did.
 * Statements sent in one go (pipelined) arrive before any answer, so they are one round trip however many they are.
 */
async function countingProxy(t: TestContext, target: URL): Promise<{ port: number; rounds: () => number }> {
  let rounds = 0;
  let serverSpokeLast = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => (client.destroy(), upstream.destroy()));
    }
    client.on('data', (data) => {
      if (serverSpokeLast) rounds += 1;
      serverSpokeLast = false;
      upstream.write(data);
    });
    upstream.on('data', (data) => {
      serverSpokeLast = true;
      client.write(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { port: (server.address() as net.AddressInfo).port, rounds: () => rounds };
}

/** A migrated storage whose one connection goes through the proxy. */
async function storageBehindProxy(t: TestContext) {
  const database = await createDatabase();
  const proxy = await countingProxy(t, new URL(database.url));
  const url = new URL(database.url);
  url.port = String(proxy.port);
  const storage = new PostgresStorage(url.toString(), 1);
  t.after(async () => {
    await storage.close();
    await database.drop();
  });
  await storage.migrate();
  return { storage, roundsOf: async (work: () => Promise<unknown>) => roundsOf(proxy.rounds, work) };
}

async function roundsOf(rounds: () => number, work: () => Promise<unknown>): Promise<number> {
  const before = rounds();
  await work();
  return rounds() - before;
}

test(
  'a create is one round trip to PostgreSQL, an update or delete two, however many statements they run',
  { skip },
  async (t) => {
    const { storage, roundsOf } = await storageBehindProxy(t);
    const food = await storage.create(foods, scope, { name: 'Chow' });
    const owner = await storage.create(owners, scope, { name: 'Ann' });
    // Each statement text once first, so that what is counted is the steady state: a text's first use on a connection
    // costs one more round trip, and holds back the statements behind it, while the driver asks for its parameter types.
    await storage.create(dogs, scope, { name: 'Rex' });
    const warm = await storage.create(dogs, scope, { name: 'Rex', ownerId: owner.id!, foodIds: [food.id!] });
    await storage.update(dogs, scope, warm.id!, { name: 'Rexy', foodIds: [food.id!] });
    await storage.remove(dogs, scope, warm.id!);
    const other = await storage.create(owners, scope, { name: 'Bo' });
    await storage.create(dogs, scope, { name: 'Fido', ownerId: other.id! });
    await storage.remove(owners, scope, other.id!);

    assert.equal(await roundsOf(() => storage.create(dogs, scope, { name: 'Max' })), 1, 'a POST: one statement');
    let linked = warm;
    const create = async () => {
      linked = await storage.create(dogs, scope, { name: 'Bella', ownerId: owner.id!, foodIds: [food.id!] });
    };
    assert.equal(await roundsOf(create), 1, 'a POST with references and links: one statement too');
    const update = () => storage.update(dogs, scope, linked.id!, { name: 'Belle', foodIds: [food.id!] });
    assert.equal(await roundsOf(update), 2, 'a PUT: the lock and the checks, then the writes');
    assert.equal(
      await roundsOf(() => storage.remove(dogs, scope, linked.id!)),
      2,
      'a DELETE: the lock, then the writes',
    );
    assert.equal(await roundsOf(() => storage.remove(owners, scope, owner.id!)), 2, 'a DELETE clearing references');
    assert.equal(await storage.count(dogs, scope, { filters: [] }), 3);
  },
);

test(
  'a pipelined statement that fails rolls the whole transaction back and is the error reported',
  { skip },
  async (t) => {
    const database = await createDatabase();
    const db = new Connection(database.url, { poolSize: 1 });
    t.after(async () => {
      await db.close();
      await database.drop();
    });
    await db.run('CREATE TABLE pipelined (id integer PRIMARY KEY)', []);
    await db.run('INSERT INTO pipelined VALUES (1)', []);
    const failed = db.transaction(async (tx) => {
      tx.queue('INSERT INTO pipelined VALUES (2)', []);
      tx.queue('INSERT INTO pipelined VALUES (1)', []);
      tx.queue('INSERT INTO pipelined VALUES (3)', []);
      return 'committed';
    });
    // The duplicate key (23505), not the "transaction is aborted" (25P02) of the statement behind it.
    await assert.rejects(failed, { code: '23505' });
    assert.deepEqual([...(await db.rows('SELECT id FROM pipelined ORDER BY id', []))], [[1]]);

    const awaited = db.transaction(async (tx) => {
      tx.queue('INSERT INTO pipelined VALUES (1)', []);
      return tx.rows('SELECT count(*)::int FROM pipelined', []);
    });
    await assert.rejects(awaited, { code: '23505' }, 'a read behind a failed statement reports that failure');
    assert.deepEqual([...(await db.rows('SELECT id FROM pipelined ORDER BY id', []))], [[1]]);

    const value = await db.transaction(async (tx) => {
      tx.queue('INSERT INTO pipelined VALUES (2)', []);
      tx.queue('INSERT INTO pipelined VALUES (3)', []);
      return tx.rows<[number]>('SELECT count(*)::int FROM pipelined', []);
    });
    assert.deepEqual([...value], [[3]], 'a read sees the statements queued before it');
    assert.deepEqual([...(await db.rows('SELECT id FROM pipelined ORDER BY id', []))], [[1], [2], [3]]);
  },
);
