// Seeds a benchmark database through the real storage: an account with a client, and its owners and dogs.
import type { Item } from '../src/resources/definition.js';
import { dogs } from '../src/resources/dogs.js';
import { owners } from '../src/resources/owners.js';
import { SqliteStorage } from '../src/storage/sqlite/sqlite-storage.js';
import fs from 'node:fs';
import path from 'node:path';
import { hashPassword, randomSecret, secretHash } from '../src/auth/secrets.js';

const NAMES = [
  'Rex',
  'Bella',
  'Max',
  'Luna',
  'Charlie',
  'Lucy',
  'Cooper',
  'Daisy',
  'Milo',
  'Molly',
  'Buddy',
  'Sadie',
  'Rocky',
  'Maggie',
  'Bear',
  'Sophie',
  'Duke',
  'Chloe',
  'Tucker',
  'Bailey',
];
const PEOPLE = ['Ann', 'Bob', 'Cecilie', 'Dag', 'Eva', 'Finn', 'Gro', 'Hans', 'Ingrid', 'Jon'];
const COLORS = ['brown', 'black', 'white', 'golden', 'grey', 'cream', 'red', 'brindle'];
const PLACES = [
  'Oslo',
  'Bergen',
  'Tromsø',
  'Trondheim',
  'Stavanger',
  'København',
  'Stockholm',
  'Göteborg',
  'Helsinki',
  'Reykjavík',
];
const STATES = ['registered', 'registered', 'registered', 'adoptable', 'adopted', 'lost'];
const DOGS_PER_OWNER = 5;
const BATCH = 500;

export interface Seeded {
  dogId: string;
  ownerId: string;
  /** The OAuth client of the account that owns the data. */
  clientId: string;
  clientSecret: string;
}

const ACCOUNT = 'bench-account';
const CLIENT = 'bench-client';

/** Creates `count` dogs (and an owner per five) in `dataDir` unless it already holds them. */
export async function seed(dataDir: string, count: number): Promise<Seeded> {
  const storage = new SqliteStorage(dataDir);
  await storage.migrate();
  const scope = { kind: 'tenant', tenantId: ACCOUNT } as const;
  const secretFile = path.join(dataDir, 'bench-client-secret');
  if (!fs.existsSync(secretFile)) {
    const secret = randomSecret();
    await storage.auth.createAccount({
      accountId: ACCOUNT,
      email: 'bench@example.com',
      passwordHash: await hashPassword('benchmark passphrase'),
      client: { id: CLIENT, name: 'bench', secretHash: secretHash(secret), scopes: ['read', 'write'] },
    });
    fs.writeFileSync(secretFile, secret);
  }
  const ownerCount = Math.ceil(count / DOGS_PER_OWNER);
  const ownerIds =
    (await storage.list(owners, scope, { filters: [], limit: 1, offset: 0 })).items.length > 0
      ? undefined
      : await createInBatches(ownerCount, (i) =>
          storage.create(owners, scope, {
            name: `${PEOPLE[i % PEOPLE.length]} ${i}`,
            email: `owner${i}@example.com`,
            location: PLACES[(i * 3) % PLACES.length]!,
          }),
        );
  const existing = await storage.count(dogs, scope, { filters: [] });
  if (existing < count && ownerIds) {
    await createInBatches(count, (i) =>
      storage.create(dogs, scope, {
        name: `${NAMES[i % NAMES.length]} ${i}`,
        furColor: COLORS[(i * 7) % COLORS.length]!,
        location: PLACES[(i * 13) % PLACES.length]!,
        state: STATES[(i * 5) % STATES.length]!,
        ownerId: ownerIds[i % ownerIds.length]!,
      }),
    );
  }
  const middle = Math.floor(count / 2);
  const dog = (await storage.list(dogs, scope, { filters: [], limit: 1, offset: middle })).items[0]!;
  await storage.close();
  return { dogId: dog.id!, ownerId: dog.ownerId!, clientId: CLIENT, clientSecret: fs.readFileSync(secretFile, 'utf8') };
}

/** Creates in batches of concurrent writes, which the storage commits together. */
async function createInBatches(count: number, create: (index: number) => Promise<Item>): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => create(start + k)),
    );
    ids.push(...batch.map((item) => item.id!));
  }
  return ids;
}
