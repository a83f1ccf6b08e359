// kill -9 under concurrent writes, for either backend: clients create, update and delete linked items; the process is
// killed mid-stream and restarted on the same data; every acknowledged write is there and nothing is half-applied.
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { Random } from '../http/fuzz/random.js';
import { authorize, request, startService, tempDataDir, type Service } from './process-helper.js';
import { apply, consistent, describe, emptyWorld, nextWrite, type World, type Write } from './write-crash-model.js';

const CLIENTS = 6;

interface Client {
  prefix: string;
  acked: World;
  inFlight?: Write;
  writes: number;
}

type Send = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: string }>;

function sender(service: Service, auth: Record<string, string>): Send {
  return (method, path, body) =>
    request(service, {
      method,
      path,
      headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

/** The request that makes a write, and what answer acknowledges it. */
function httpOf(write: Write, vet: string): { method: string; path: string; body?: unknown } {
  switch (write.kind) {
    case 'createDog':
      return { method: 'POST', path: '/v2/dogs', body: { ...write.dog, veterinarianId: vet } };
    case 'createFood':
      return { method: 'POST', path: '/v2/foods', body: { name: write.name, brand: 'Acme' } };
    case 'createOwner':
      return { method: 'POST', path: '/v2/owners', body: { name: write.name, veterinarianIds: write.veterinarianIds } };
    case 'putDog':
      return { method: 'PUT', path: `/v2/dogs/${write.id}`, body: write.dog };
    default:
      return { method: 'DELETE', path: `/v2/${write.kind.slice('delete'.length).toLowerCase()}s/${write.id}` };
  }
}

/** One client: one write at a time until the process dies; a write whose answer never came stays in flight. */
async function runClient(
  client: Client,
  send: Send,
  random: Random,
  shared: { foods: string[]; vets: string[] },
): Promise<void> {
  for (;;) {
    const write = nextWrite(random, client.acked, client.prefix, shared, client.writes);
    const { method, path, body } = httpOf(write, shared.vets[0] as string);
    client.inFlight = write;
    let answer: { status: number; body: string };
    try {
      answer = await send(method, path, body);
    } catch (error) {
      // Refused: it never reached the process, so it is not in flight. Any other failure: it may have.
      if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') client.inFlight = undefined;
      return;
    }
    assert.ok(answer.status === 200 || answer.status === 201, `${method} ${path}: ${answer.status} ${answer.body}`);
    const id = write.kind.startsWith('create')
      ? String((Object.values(JSON.parse(answer.body))[0] as { id: string }).id)
      : '';
    client.acked = apply(client.acked, write, id);
    client.inFlight = undefined;
    client.writes += 1;
  }
}

/** Every page of a collection, with the fields given. */
async function readAll(send: Send, resource: string, fields: string): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  for (let offset = 0; ; offset += 100) {
    const answer = await send('GET', `/v2/${resource}?limit=100&offset=${offset}&fields=${fields}`);
    assert.equal(answer.status, 200, answer.body);
    const page =
      (JSON.parse(answer.body) as Record<string, Array<Record<string, Record<string, unknown>>>>)[resource] ?? [];
    items.push(...page.map((entry) => Object.values(entry)[0] as Record<string, unknown>));
    if (page.length < 100) return items;
  }
}

const ids = (list: unknown): string[] =>
  (list as Array<Record<string, { id: string }>>).map((entry) => String(Object.values(entry)[0]?.id)).sort();

/** What the service holds of one client's items, read through the API. */
async function worldOf(send: Send, prefix: string): Promise<World> {
  const world = emptyWorld();
  const mine = (item: Record<string, unknown>): boolean => String(item.name).startsWith(prefix);
  for (const food of (await readAll(send, 'foods', 'id,name')).filter(mine))
    world.foods.set(String(food.id), String(food.name));
  for (const owner of (await readAll(send, 'owners', 'id,name,veterinarians(id)')).filter(mine))
    world.owners.set(String(owner.id), { name: String(owner.name), veterinarianIds: ids(owner.veterinarians) });
  for (const dog of (await readAll(send, 'dogs', 'id,name,ownerId,foods(id)')).filter(mine))
    world.dogs.set(String(dog.id), {
      name: String(dog.name),
      foodIds: ids(dog.foods),
      ownerId: (dog.ownerId as string | null) ?? null,
    });
  return world;
}

export interface CrashOutcome {
  /** The restarted service (still running), its Authorization header, and the data directory. */
  service: Service;
  auth: Record<string, string>;
  clients: Client[];
}

/** Runs the scenario on the storage `env` selects (DATA_DIR alone: SQLite; with DATABASE_URL: PostgreSQL). */
export async function killUnderConcurrentWrites(
  t: TestContext,
  env: Record<string, string> = {},
): Promise<CrashOutcome> {
  const dataDir = tempDataDir(t);
  const first = await startService(t, dataDir, { ...env, RATE_LIMIT_PER_MINUTE: '0' });
  const auth = await authorize(first);
  const send = sender(first, auth);
  const shared = { foods: [] as string[], vets: [] as string[] };
  for (const name of ['shared food 1', 'shared food 2']) shared.foods.push(await createdId(send, 'foods', { name }));
  for (const name of ['shared vet 1', 'shared vet 2'])
    shared.vets.push(await createdId(send, 'veterinarians', { name }));

  const random = new Random(0x6b696c6c);
  const clients: Client[] = Array.from({ length: CLIENTS }, (_, i) => ({
    prefix: `c${i}x`,
    acked: emptyWorld(),
    writes: 0,
  }));
  const running = clients.map((client) => runClient(client, send, random, shared));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  first.child.kill('SIGKILL');
  await Promise.all(running);
  assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });
  const acknowledged = clients.reduce((sum, client) => sum + client.writes, 0);
  assert.ok(acknowledged >= 30, `the clients had written enough before the kill (${acknowledged})`);
  assert.ok(
    clients.some((client) => client.inFlight),
    'the kill came while writes were in flight',
  );

  const service = await startService(t, dataDir, env);
  const after = sender(service, auth);
  for (const client of clients) {
    const actual = await worldOf(after, client.prefix);
    assert.ok(
      consistent(actual, client.acked, client.inFlight),
      `client ${client.prefix}: the data is not its acknowledged writes (plus, whole or not at all, its write in flight ` +
        `${JSON.stringify(client.inFlight)})\nheld:\n${describe(actual)}\nacknowledged:\n${describe(client.acked)}`,
    );
  }
  await searchMatches(after, clients);
  return { service, auth, clients };
}

async function createdId(send: Send, resource: string, body: unknown): Promise<string> {
  const answer = await send('POST', `/v2/${resource}`, body);
  assert.equal(answer.status, 201, answer.body);
  return String((Object.values(JSON.parse(answer.body))[0] as { id: string }).id);
}

/** The search index agrees with the items: a dog's current name finds it; the names it no longer has do not. */
async function searchMatches(send: Send, clients: Client[]): Promise<void> {
  for (const client of clients) {
    const dogs = [...client.acked.dogs].slice(-3);
    for (const [id, dog] of dogs) {
      if (client.inFlight && 'id' in client.inFlight && client.inFlight.id === id) continue;
      const found = await send('GET', `/v2/dogs?q=${dog.name}&fields=id,name`);
      const names = (JSON.parse(found.body).dogs as Array<{ dog: { id: string; name: string } }>).map(
        (entry) => entry.dog,
      );
      assert.deepEqual(
        names.filter((entry) => entry.name === dog.name),
        [{ id, name: dog.name }],
        `search for ${dog.name}`,
      );
    }
  }
}
