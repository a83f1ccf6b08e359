// The schema the tests of a file take turns on (reusedPostgresStorage): each test finds it empty, a second app built
// while it is lent gets a schema of its own, and a schema whose shape a test changed is not lent again.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rawRun, rawValue } from '../raw-sql.js';
import type { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import { dropLentSchema, reusedPostgresStorage, skipWithoutPostgres } from './databases.js';

const skip = skipWithoutPostgres;

after(dropLentSchema);

async function schemaOf(storage: PostgresStorage): Promise<string> {
  return String(await rawValue(storage, 'SELECT current_schema()'));
}

async function account(storage: PostgresStorage, id: string): Promise<void> {
  await storage.auth.createAccount({
    accountId: id,
    email: `${id}@example.test`,
    passwordHash: 'not-used',
    client: { id: `${id}-client`, name: 'app', secretHash: 'not-used', scopes: ['read'] },
  });
}

test(
  'a lent schema comes back empty, its sequences restarted; a second storage meanwhile gets its own',
  { skip },
  async () => {
    const first = await reusedPostgresStorage();
    const lent = await schemaOf(first.storage);
    await account(first.storage, 'first');
    const before = Number(await rawValue(first.storage, "SELECT nextval('request_log_rows')"));

    const meanwhile = await reusedPostgresStorage();
    assert.notEqual(await schemaOf(meanwhile.storage), lent, 'a schema of its own while the first is lent');
    await meanwhile.storage.close();
    await meanwhile.release();

    await first.storage.close();
    await first.release();
    const second = await reusedPostgresStorage();
    try {
      assert.equal(await schemaOf(second.storage), lent, 'the same schema, lent again');
      assert.equal(Number(await rawValue(second.storage, 'SELECT count(*) FROM accounts')), 0);
      assert.equal(Number(await rawValue(second.storage, 'SELECT count(*) FROM clients')), 0);
      assert.equal(Number(await rawValue(second.storage, "SELECT nextval('request_log_rows')")), before);
    } finally {
      await second.storage.close();
      await second.release();
    }
  },
);

test(
  'a schema given back with another shape (a trigger, a dropped table) is replaced by a new one',
  { skip },
  async () => {
    for (const change of [
      [
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$",
        'CREATE TRIGGER refuse BEFORE INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION refuse()',
      ],
      ['DROP TABLE resource_counts'],
    ]) {
      const changed = await reusedPostgresStorage();
      const schema = await schemaOf(changed.storage);
      for (const statement of change) await rawRun(changed.storage, statement);
      await changed.storage.close();
      await changed.release();

      const next = await reusedPostgresStorage();
      try {
        assert.notEqual(await schemaOf(next.storage), schema, change.join('; '));
        await account(next.storage, 'next');
        assert.equal(Number(await rawValue(next.storage, 'SELECT count(*) FROM resource_counts')), 0);
      } finally {
        await next.storage.close();
        await next.release();
      }
    }
  },
);
