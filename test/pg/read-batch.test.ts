// Reads of one SQL text made in the same event-loop turn leave as one statement (storage/postgres/read-batch.ts), and
// each caller gets exactly the answer it would have got alone.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import { resources } from '../../src/resources/index.js';
import { owners } from '../../src/resources/owners.js';
import { Connection } from '../../src/storage/postgres/connection.js';
import { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import { ReadBatcher, arrayLiteral, batchedStatement } from '../../src/storage/postgres/read-batch.js';
import { StorageError } from '../../src/storage/storage-error.js';
import { PUBLIC_SCOPE, tenantScope, type ListQuery } from '../../src/storage/storage.js';
import { adoptableDogs } from '../../src/routes/adoptions-routes.js';
import { createDatabase, createPostgresStorage, postgresStorageFor, skipWithoutPostgres } from './databases.js';

const skip = skipWithoutPostgres;
const ann = tenantScope('tenant-ann');
const bob = tenantScope('tenant-bob');
const page = (offset: number, query: Partial<ListQuery> = {}): ListQuery => ({
  filters: [],
  limit: 3,
  offset,
  ...query,
});

async function seeded(t: TestContext): Promise<PostgresStorage> {
  const { storage, database } = await createPostgresStorage();
  t.after(async () => {
    await storage.close();
    await database.drop();
  });
  for (let n = 0; n < 12; n += 1) {
    await storage.create(dogs, ann, { name: `Rex ${n}`, furColor: n % 2 ? 'brown' : 'black' });
  }
  await storage.create(dogs, bob, { name: 'Bob dog', furColor: 'brown' });
  return storage;
}

function batcherOf(storage: PostgresStorage): Connection['batcher'] {
  return (storage as unknown as { db: Connection }).db.batcher;
}

/** Runs `calls` in one turn, twice: the first turn learns the texts' batched forms, the second is measured. */
async function together<T>(storage: PostgresStorage, calls: () => Array<Promise<T>>) {
  await Promise.all(calls());
  // A text's form is learnt beside its first reads, which may answer first.
  await batcherOf(storage).learnt();
  const statements = storage.queryCount;
  const batches = batcherOf(storage).batches;
  const answers = await Promise.all(calls());
  return { answers, statements: storage.queryCount - statements, batches: batcherOf(storage).batches - batches };
}

test(
  'concurrent GETs of different items are one statement, and each gets its own item or none',
  { skip },
  async (t) => {
    const storage = await seeded(t);
    const { items } = await storage.list(dogs, ann, page(0, { limit: 12 }));
    const ids = [...items.map((dog) => dog.id!), 'missing'];
    const alone = [];
    for (const id of ids) alone.push(await storage.get(dogs, ann, id));

    const { answers, statements, batches } = await together(storage, () => ids.map((id) => storage.get(dogs, ann, id)));
    assert.equal(statements, 1);
    assert.equal(batches, 1);
    assert.deepEqual(answers, alone);
    assert.equal(answers.at(-1), undefined);
    // Another tenant's read of the same ids in the same statement sees none of them.
    const { answers: other } = await together(storage, () => ids.map((id) => storage.get(dogs, bob, id)));
    assert.deepEqual(
      other,
      ids.map(() => undefined),
    );
  },
);

test('concurrent pages keep each page in its order, with its own hasMore', { skip }, async (t) => {
  const storage = await seeded(t);
  const offsets = [0, 3, 6, 9, 11, 40];
  const alone = [];
  for (const offset of offsets) alone.push(await storage.list(dogs, ann, page(offset)));
  const { answers, statements } = await together(storage, () =>
    offsets.map((offset) => storage.list(dogs, ann, page(offset))),
  );
  assert.equal(statements, 1);
  assert.deepEqual(answers, alone);
  assert.deepEqual(
    answers.flatMap((answer) => answer.items.map((dog) => dog.name)).slice(0, 12),
    Array.from({ length: 12 }, (_, n) => `Rex ${n}`),
  );
  assert.deepEqual(
    answers.map((answer) => answer.hasMore),
    [true, true, true, false, false, false],
  );
});

test('counts, filters and searches of several tenants batch and stay within their tenant', { skip }, async (t) => {
  const storage = await seeded(t);
  const brown = { filters: [{ field: 'furColor', values: ['brown'] }] };
  const reads = (): Array<Promise<unknown>> => [
    storage.count(dogs, ann, { filters: [] }),
    storage.count(dogs, bob, { filters: [] }),
    storage.count(owners, ann, { filters: [] }),
    storage.list(dogs, ann, page(0, brown)),
    storage.list(dogs, bob, page(0, brown)),
    storage.list(dogs, ann, page(0, { q: 'rex' })),
    storage.list(dogs, bob, page(0, { q: 'rex' })),
  ];
  const alone = [];
  for (const read of reads()) alone.push(await read);
  const { answers, statements } = await together(storage, reads);
  assert.deepEqual(answers, alone);
  assert.deepEqual(answers.slice(0, 3), [12, 1, 0]);
  // One statement per text: the kept count, the filter's page and the search's first range.
  assert.ok(statements <= 3, `${statements} statements`);
});

test(
  'array parameters (several filter values) travel as array literals, quotes, backslashes and all',
  { skip },
  async (t) => {
    const storage = await seeded(t);
    const odd = 'a"b\\c, {d} null';
    await storage.create(dogs, ann, { name: 'Odd', furColor: odd });
    const colors = (...values: string[]) => ({ filters: [{ field: 'furColor', values }] });
    const reads = () => [
      storage.list(dogs, ann, page(0, colors(odd, 'black'))),
      storage.list(dogs, ann, page(3, colors('brown', 'black'))),
      storage.list(dogs, ann, page(0, colors(odd, 'none'))),
      storage.list(dogs, bob, page(0, colors(odd, 'brown'))),
    ];
    const alone = [];
    for (const read of reads()) alone.push(await read);
    const { answers, statements, batches } = await together(storage, reads);
    assert.equal(batches, 1);
    assert.equal(statements, 1);
    assert.deepEqual(answers, alone);
    assert.deepEqual(
      answers.map((answer) => answer.items.map((dog) => dog.name)),
      [['Rex 0', 'Rex 2', 'Rex 4'], ['Rex 3', 'Rex 4', 'Rex 5'], ['Odd'], ['Bob dog']],
    );
  },
);

test(
  "concurrent one-word /searches of several tenants read every resource's first range in one statement",
  { skip },
  async (t) => {
    const database = await createDatabase();
    // No kept answers: every search reads the index.
    const storage = new PostgresStorage(database.url, undefined, 0);
    t.after(async () => {
      await storage.close();
      await database.drop();
    });
    await storage.migrate();
    for (let n = 0; n < 4; n += 1) await storage.create(dogs, ann, { name: `Rex ${n}` });
    await storage.create(owners, ann, { name: 'Rex' });
    await storage.create(foods, ann, { name: 'Rex chow' });
    await storage.create(owners, bob, { name: 'Rex' });
    await storage.create(dogs, bob, { name: 'Bob dog' });
    // Carol's dogs are in the range twice (name and place): the first read's rows hold a dog again, and the dogs'
    // range is read on after its last row, alone.
    const carol = tenantScope('tenant-carol');
    for (let n = 0; n < 3; n += 1) await storage.create(dogs, carol, { name: 'Rex', location: 'Rex' });
    const search = (scope: typeof ann, limit: number, offset = 0) =>
      storage.search(scope, { q: 'rex', types: resources, limit, offset });
    const reads = () => [search(ann, 20), search(bob, 20), search(ann, 2, 1), search(carol, 3)];
    const { answers, statements } = await together(storage, reads);
    // The four searches' first reads, then Carol's dogs read on.
    assert.equal(statements, 2);
    const shown = answers.map(({ hits, hasMore }) => ({
      hits: hits.map(({ def, item }) => `${def.singular} ${item.name}`),
      hasMore,
    }));
    // Tier 1 (a name equal to the word) first, then tier 2 (a name starting with it) by resource, then creation.
    assert.deepEqual(shown, [
      { hits: ['owner Rex', 'dog Rex 0', 'dog Rex 1', 'dog Rex 2', 'dog Rex 3', 'food Rex chow'], hasMore: false },
      { hits: ['owner Rex'], hasMore: false },
      { hits: ['dog Rex 0', 'dog Rex 1'], hasMore: true },
      { hits: ['dog Rex', 'dog Rex', 'dog Rex'], hasMore: false },
    ]);
    assert.equal(new Set(answers[3]!.hits.map(({ item }) => item.id)).size, 3);
  },
);

test('when one call of a batch fails, each call runs alone and only that one fails', { skip }, async (t) => {
  const database = await createDatabase();
  const connection = new Connection(database.url, { poolSize: 2 });
  t.after(async () => {
    await connection.close();
    await database.drop();
  });
  const sql = 'SELECT $1::int4 + 1';
  await connection.batcher.shapeOf(sql);
  const batches = connection.batcher.batches;
  const settled = await Promise.allSettled([
    connection.read(sql, ['1']),
    connection.read(sql, ['not a number']),
    connection.read(sql, ['41']),
  ]);
  assert.equal(connection.batcher.batches - batches, 1);
  const value = (outcome: PromiseSettledResult<unknown[][]>) =>
    outcome.status === 'fulfilled' ? Array.from(outcome.value, (row) => [...row]) : outcome.reason;
  assert.deepEqual(value(settled[0]!), [[2]]);
  assert.equal(settled[1]!.status, 'rejected');
  assert.match(String((settled[1] as PromiseRejectedResult).reason.message), /invalid input syntax for type integer/);
  assert.deepEqual(value(settled[2]!), [[42]]);
});

test('a batch on a closed database fails every call as unavailable', { skip }, async (t) => {
  const database = await createDatabase();
  t.after(() => database.drop());
  const connection = new Connection(database.url, { poolSize: 2 });
  const sql = 'SELECT $1::text';
  await connection.batcher.shapeOf(sql);
  await connection.close();
  const settled = await Promise.allSettled([connection.read(sql, ['a']), connection.read(sql, ['b'])]);
  for (const outcome of settled) {
    assert.equal(outcome.status, 'rejected');
    assert.ok((outcome as PromiseRejectedResult).reason instanceof StorageError);
    assert.equal((outcome as PromiseRejectedResult).reason.kind, 'unavailable');
  }
});

test(
  'concurrent look-ups of clients and of tokens are one statement each, and each gets its own',
  { skip },
  async (t) => {
    const storage = await postgresStorageFor(t);
    const clients = ['app-a', 'app-b', 'app-c'];
    for (const [n, id] of clients.entries()) {
      const client = { id, name: `App ${n}`, secretHash: `hash-${n}`, scopes: ['dogs:read'] };
      assert.equal(
        await storage.auth.createAccount({
          accountId: `acct-${n}`,
          email: `${n}@example.com`,
          passwordHash: 'x',
          client,
        }),
        true,
      );
      await storage.auth.saveToken({
        tokenHash: `token-${n}`,
        tenantId: `acct-${n}`,
        clientId: id,
        scopes: ['dogs:read'],
        issuedAt: 1,
        expiresAt: 4_000_000_000,
        revoked: false,
      });
    }
    const ids = [...clients, 'no-such-app'];
    const found = await together(storage, () => ids.map((id) => storage.auth.findClient(id)));
    assert.equal(found.statements, 1);
    assert.deepEqual(
      found.answers.map((client) => client && [client.id, client.tenantId, client.secretHash]),
      [['app-a', 'acct-0', 'hash-0'], ['app-b', 'acct-1', 'hash-1'], ['app-c', 'acct-2', 'hash-2'], undefined],
    );
    const hashes = ['token-2', 'token-0', 'no-such-token'];
    const tokens = await together(storage, () => hashes.map((hash) => storage.auth.findToken(hash)));
    assert.equal(tokens.statements, 1);
    assert.deepEqual(
      tokens.answers.map((token) => token && [token.tokenHash, token.tenantId, token.clientId]),
      [['token-2', 'acct-2', 'app-c'], ['token-0', 'acct-0', 'app-a'], undefined],
    );
  },
);

test('the batched statement: arrays of the parameter types, array parameters as literals, each call numbered', () => {
  assert.deepEqual(
    batchedStatement(
      'SELECT a FROM t WHERE b = $1 AND c = ANY($2::text[]) LIMIT $10',
      [25, 1009, 23, 23, 23, 23, 23, 23, 23, 20],
    ),
    {
      sql: `SELECT batch_rows.*, batch.i::int4 FROM unnest($1::text[], $2::text[], $3::int4[], $4::int4[], $5::int4[], $6::int4[], $7::int4[], $8::int4[], $9::int4[], $10::int8[]) WITH ORDINALITY AS batch(p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, i)
    CROSS JOIN LATERAL (SELECT a FROM t WHERE b = (batch.p1) AND c = ANY((batch.p2::text[])::text[]) LIMIT (batch.p10)) AS batch_rows`,
      literal: [false, true, false, false, false, false, false, false, false, false],
    },
  );
  // A type with no array form listed (json), or no parameter at all: sent alone.
  assert.equal(batchedStatement('SELECT $1::json', [114]), undefined);
  assert.equal(batchedStatement('SELECT 1', []), undefined);
  assert.equal(arrayLiteral(['a"b\\c', null, 'x,{y}', 3]), '{"a\\"b\\\\c",NULL,"x,{y}","3"}');
});

test("a batch's rows are handed out and the driver's answer is emptied, so that it holds none of them", async () => {
  // The driver's answer to a batch outlived the read until a major collection, and every row in it was promoted to the
  // old generation with it (read-batch.ts, `together`).
  const answers: unknown[][][] = [];
  const batcher = new ReadBatcher(
    (sql, params) => {
      if (!sql.includes('unnest')) return Promise.resolve([[`alone ${String(params[0])}`]]);
      const answer = [
        ['a1', 1],
        ['b1', 2],
        ['a2', 1],
      ];
      answers.push(answer);
      return Promise.resolve(answer);
    },
    () => Promise.resolve([25]),
  );
  const sql = 'SELECT name FROM t WHERE tenant = $1';
  // The first turn learns the batched form while its calls go alone.
  assert.deepEqual(await Promise.all([batcher.read(sql, ['a']), batcher.read(sql, ['b'])]), [
    [['alone a']],
    [['alone b']],
  ]);
  await batcher.learnt();
  const [a, b] = await Promise.all([batcher.read(sql, ['a']), batcher.read(sql, ['b'])]);
  assert.deepEqual(a, [['a1'], ['a2']]);
  assert.deepEqual(b, [['b1']]);
  assert.equal(answers.length, 1, 'one batched statement');
  assert.deepEqual(answers[0], [], "the driver's answer is empty once each call has its rows");
});

test(
  'the open adoption listing batches with its state in the text; filtered by colour, it is sent alone',
  { skip },
  async (t) => {
    const storage = await seeded(t);
    await storage.create(dogs, bob, { name: 'Up for adoption', furColor: 'brown', state: 'adoptable' });
    const adoptable = { field: 'state', values: ['adoptable'], exact: true };
    const brown = { field: 'furColor', values: ['brown'] };
    const plain = await together(storage, () => [
      storage.list(adoptableDogs, PUBLIC_SCOPE, page(0, { filters: [adoptable] })),
      storage.list(adoptableDogs, PUBLIC_SCOPE, page(1, { filters: [adoptable] })),
    ]);
    assert.equal(plain.batches, 1);
    assert.deepEqual(
      plain.answers.map((answer) => answer.items.map((dog) => dog.name)),
      [['Up for adoption'], []],
    );
    const filtered = await together(storage, () => [
      storage.list(adoptableDogs, PUBLIC_SCOPE, page(0, { filters: [adoptable, brown] })),
      storage.list(adoptableDogs, PUBLIC_SCOPE, page(1, { filters: [adoptable, brown] })),
    ]);
    assert.equal(filtered.batches, 0);
    assert.equal(filtered.statements, 2);
    assert.deepEqual(
      filtered.answers[0]!.items.map((dog) => dog.name),
      ['Up for adoption'],
    );
  },
);
