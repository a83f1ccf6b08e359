// The kill -9 test's model of one client's data: what its acknowledged writes made, and what its one write in flight
// may have added.
import type { Random } from '../http/fuzz/random.js';

export interface DogState {
  name: string;
  /** Sorted. */
  foodIds: string[];
  ownerId: string | null;
}

/** The items one client made (names carry the client's prefix, so its items are found among everyone's). */
export interface World {
  dogs: Map<string, DogState>;
  foods: Map<string, string>;
  /** Owner id → name and its veterinarians (sorted). */
  owners: Map<string, { name: string; veterinarianIds: string[] }>;
}

export type Write =
  | { kind: 'createDog'; dog: DogState }
  | { kind: 'createFood'; name: string }
  | { kind: 'createOwner'; name: string; veterinarianIds: string[] }
  | { kind: 'putDog'; id: string; dog: DogState }
  | { kind: 'deleteDog'; id: string }
  | { kind: 'deleteFood'; id: string }
  | { kind: 'deleteOwner'; id: string };

export function emptyWorld(): World {
  return { dogs: new Map(), foods: new Map(), owners: new Map() };
}

/** The next write of client `prefix`: mostly creates and updates, with deletes that must cascade to links. */
export function nextWrite(
  random: Random,
  world: World,
  prefix: string,
  shared: { foods: string[]; vets: string[] },
  n: number,
): Write {
  const dogs = [...world.dogs.keys()];
  const foods = [...world.foods.keys()];
  const owners = [...world.owners.keys()];
  const dog = (name: string): DogState => ({
    name,
    foodIds: [...new Set(random.some([...shared.foods, ...foods], 3))].sort(),
    ownerId: owners.length > 0 && random.chance(0.7) ? random.pick(owners) : null,
  });
  const roll = random.next();
  if (roll < 0.12 || (foods.length === 0 && roll < 0.3)) return { kind: 'createFood', name: `${prefix}food${n}` };
  if (roll < 0.22 || owners.length === 0)
    return {
      kind: 'createOwner',
      name: `${prefix}owner${n}`,
      veterinarianIds: [...new Set(random.some(shared.vets, 2))].sort(),
    };
  if (roll < 0.55 || dogs.length === 0) return { kind: 'createDog', dog: dog(`${prefix}dog${n}`) };
  if (roll < 0.8) return { kind: 'putDog', id: random.pick(dogs), dog: dog(`${prefix}dog${n}`) };
  if (roll < 0.92) return { kind: 'deleteDog', id: random.pick(dogs) };
  if (roll < 0.97 && foods.length > 0) return { kind: 'deleteFood', id: random.pick(foods) };
  return { kind: 'deleteOwner', id: random.pick(owners) };
}

/** The world after `write`; a create needs the id the service gave it. */
export function apply(world: World, write: Write, id = ''): World {
  const next: World = { dogs: new Map(world.dogs), foods: new Map(world.foods), owners: new Map(world.owners) };
  switch (write.kind) {
    case 'createDog':
      next.dogs.set(id, write.dog);
      break;
    case 'createFood':
      next.foods.set(id, write.name);
      break;
    case 'createOwner':
      next.owners.set(id, { name: write.name, veterinarianIds: write.veterinarianIds });
      break;
    case 'putDog':
      next.dogs.set(write.id, write.dog);
      break;
    case 'deleteDog':
      next.dogs.delete(write.id);
      break;
    case 'deleteFood':
      // Deleting a food removes its links (SPEC §1).
      next.foods.delete(write.id);
      for (const [dogId, dog] of next.dogs)
        next.dogs.set(dogId, { ...dog, foodIds: dog.foodIds.filter((food) => food !== write.id) });
      break;
    case 'deleteOwner':
      // Deleting an owner clears the references to it.
      next.owners.delete(write.id);
      for (const [dogId, dog] of next.dogs)
        if (dog.ownerId === write.id) next.dogs.set(dogId, { ...dog, ownerId: null });
      break;
  }
  return next;
}

/** The world as one comparable text (items by id). */
export function describe(world: World): string {
  const sorted = <T>(map: Map<string, T>): Array<[string, T]> => [...map].sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify(
    { dogs: sorted(world.dogs), foods: sorted(world.foods), owners: sorted(world.owners) },
    null,
    1,
  );
}

/**
 * Whether what the service holds is what the acknowledged writes made, or that plus the whole of the one write in
 * flight at the kill: never a part of it.
 */
export function consistent(actual: World, acked: World, inFlight: Write | undefined): boolean {
  if (describe(actual) === describe(acked)) return true;
  if (!inFlight) return false;
  let id = '';
  if (inFlight.kind.startsWith('create')) {
    const table = inFlight.kind === 'createDog' ? 'dogs' : inFlight.kind === 'createFood' ? 'foods' : 'owners';
    const added = [...actual[table].keys()].filter((key) => !acked[table].has(key));
    if (added.length !== 1) return false;
    id = added[0] as string;
  }
  return describe(actual) === describe(apply(acked, inFlight, id));
}
