// Seeds a benchmark database with a deterministic dataset of dogs, through the real storage.
import { SqliteStorage } from '../src/storage/sqlite/sqlite-storage.js';
import { dogs } from '../src/resources/dogs.js';
import { DEFAULT_TENANT } from '../src/storage/storage.js';

const NAMES = ['Rex', 'Bella', 'Max', 'Luna', 'Charlie', 'Lucy', 'Cooper', 'Daisy', 'Milo', 'Molly', 'Buddy', 'Sadie', 'Rocky', 'Maggie', 'Bear', 'Sophie', 'Duke', 'Chloe', 'Tucker', 'Bailey'];
const COLORS = ['brown', 'black', 'white', 'golden', 'grey', 'cream', 'red', 'brindle'];
const PLACES = ['Oslo', 'Bergen', 'Tromsø', 'Trondheim', 'Stavanger', 'København', 'Stockholm', 'Göteborg', 'Helsinki', 'Reykjavík'];
const STATES = ['registered', 'registered', 'registered', 'adoptable', 'adopted', 'lost'];

/** Creates `count` dogs in `dataDir` unless it already holds them; returns the id of one dog. */
export async function seed(dataDir: string, count: number): Promise<string> {
  const storage = new SqliteStorage(dataDir);
  await storage.migrate();
  const scope = { tenantId: DEFAULT_TENANT };
  const existing = await storage.count(dogs, scope, { filters: [] });
  for (let i = existing; i < count; i += 1) {
    await storage.create(dogs, scope, {
      name: `${NAMES[i % NAMES.length]} ${i}`,
      furColor: COLORS[(i * 7) % COLORS.length]!,
      location: PLACES[(i * 13) % PLACES.length]!,
      state: STATES[(i * 5) % STATES.length]!,
    });
  }
  const page = await storage.list(dogs, scope, { filters: [], limit: 1, offset: Math.floor(count / 2) });
  await storage.close();
  return page.items[0]!.id!;
}
