// Seeds a benchmark database through the real storage (either backend): an account with a client, its owners and dogs.
import type { Item } from '../src/resources/definition.js';
import { dogs } from '../src/resources/dogs.js';
import { owners } from '../src/resources/owners.js';
import type { Storage } from '../src/storage/storage.js';
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
/**
 * Writes started together. SQLite's group commit puts each such batch in one transaction (1,000,000 dogs in about
 * 100 s here), so the seed writes exactly what POST writes, through the same code, with no bulk path of its own.
 * PostgreSQL runs them on its pool, a transaction each.
 */
const BATCH = 1000;

export interface Seeded {
  dogId: string;
  ownerId: string;
  /** The OAuth client of the account that owns the data. */
  clientId: string;
  clientSecret: string;
}

const ACCOUNT = 'bench-account';
const CLIENT = 'bench-client';

/** Creates the account, its client, `count` dogs and an owner per five in an empty, migrated storage. */
export async function seed(storage: Storage, count: number): Promise<Seeded> {
  const scope = { kind: 'tenant', tenantId: ACCOUNT } as const;
  const clientSecret = randomSecret();
  await storage.auth.createAccount({
    accountId: ACCOUNT,
    email: 'bench@example.com',
    passwordHash: await hashPassword('benchmark passphrase'),
    client: { id: CLIENT, name: 'bench', secretHash: secretHash(clientSecret), scopes: ['read', 'write'] },
  });
  const ownerIds = await createInBatches(Math.ceil(count / DOGS_PER_OWNER), (i) =>
    storage.create(owners, scope, {
      name: `${PEOPLE[i % PEOPLE.length]} ${i}`,
      email: `owner${i}@example.com`,
      location: PLACES[(i * 3) % PLACES.length]!,
    }),
  );
  const dogIds = await createInBatches(count, (i) =>
    storage.create(dogs, scope, {
      name: `${NAMES[i % NAMES.length]} ${i}`,
      furColor: COLORS[(i * 7) % COLORS.length]!,
      location: PLACES[(i * 13) % PLACES.length]!,
      state: STATES[(i * 5) % STATES.length]!,
      ownerId: ownerIds[i % ownerIds.length]!,
    }),
  );
  // The dog in the middle, and its owner: neither at an end of an index.
  const middle = Math.floor(count / 2);
  return { dogId: dogIds[middle]!, ownerId: ownerIds[middle % ownerIds.length]!, clientId: CLIENT, clientSecret };
}

/** Creates in batches of concurrent writes, which the storage commits together. */
async function createInBatches(count: number, create: (index: number) => Promise<Item>): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => create(start + k)),
    );
    for (const item of batch) ids.push(item.id!);
  }
  return ids;
}
