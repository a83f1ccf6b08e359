// Seeded malformed requests over raw sockets against every route family: each answer in the allowed set and shape,
// the service alive after, and the guarded tenant's data unchanged. FUZZ_SEED replays a run, FUZZ_REQUESTS sizes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type net from 'node:net';
import { secretHash, randomSecret } from '../../src/auth/secrets.js';
import { build, createItem, newAccount, type TestApp } from '../helper.js';
import { answerProblems } from './fuzz/checks.js';
import { Random, fuzzSeed } from './fuzz/random.js';
import { fuzzRequest, type FuzzCredentials } from './fuzz/requests.js';
import { exchange } from './fuzz/wire.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
/** Connections open at once: each waits 30 ms after its answer (wire.ts, GRACE_MS), so many overlap. */
const CONCURRENCY = 32;

/** Every field of each resource, associations by id: a snapshot that sees any change to an item or a link. */
const SNAPSHOT_FIELDS: Record<string, string> = {
  dogs: 'id,name,furColor,state,location,ownerId,veterinarianId,createdAt,updatedAt,owner(id),veterinarian(id),foods(id)',
  owners: 'id,name,email,location,createdAt,updatedAt,dogs(id),veterinarians(id)',
  veterinarians: 'id,name,clinic,location,createdAt,updatedAt,dogs(id),owners(id)',
  foods: 'id,name,brand,createdAt,updatedAt,dogs(id)',
};

/** A few items of each resource, linked: the data a fuzz request must not be able to change or break. */
async function seedTenant(api: TestApp, token: string): Promise<string[]> {
  const food = await createItem(api, 'foods', { name: 'Kibble', brand: 'Acme' }, token);
  const vet = await createItem(api, 'veterinarians', { name: 'Dr Who', clinic: 'Tardis', location: 'Oslo' }, token);
  const owner = await createItem(
    api,
    'owners',
    { name: 'Ann', email: 'ann@example.com', location: 'Tromsø', veterinarianIds: [vet.id] },
    token,
  );
  const dog = await createItem(
    api,
    'dogs',
    {
      name: 'Rex',
      furColor: 'brown',
      state: 'adoptable',
      ownerId: owner.id,
      veterinarianId: vet.id,
      foodIds: [food.id],
    },
    token,
  );
  const lone = await createItem(api, 'dogs', { name: 'Fido' }, token);
  return [food, vet, owner, dog, lone].map((item) => String(item.id));
}

/** The tenant's whole data as the API shows it: every item with every field and link. */
async function snapshot(api: TestApp, token?: string): Promise<string> {
  const parts: string[] = [];
  for (const [resource, fields] of Object.entries(SNAPSHOT_FIELDS)) {
    const response = await api.request({ url: `/v2/${resource}?limit=100&fields=${fields}`, token });
    assert.equal(response.statusCode, 200, response.body);
    parts.push(response.body);
    const count = await api.request({ url: `/v2/${resource}/count`, token });
    parts.push(count.body);
  }
  const search = await api.request({ url: '/v2/search?q=rex&limit=100', token });
  parts.push(search.body);
  return parts.join('\n');
}

/** A token of the guarded tenant that may only read: the fuzz may use it, and no answer to it may change data. */
async function readOnlyToken(api: TestApp): Promise<string> {
  const token = randomSecret();
  const issuedAt = Math.floor(Date.now() / 1000);
  await api.storage.auth.saveToken({
    tokenHash: secretHash(token),
    tenantId: api.credentials.tenantId,
    clientId: api.credentials.clientId,
    scopes: ['read'],
    issuedAt,
    expiresAt: issuedAt + 3600,
    revoked: false,
  });
  return token;
}

interface Failure {
  index: number;
  line: string;
  problems: string[];
}

async function fuzz(
  port: number,
  random: Random,
  credentials: FuzzCredentials,
): Promise<{ failures: Failure[]; answered: number }> {
  const failures: Failure[] = [];
  let next = 0;
  let answered = 0;
  const worker = async (): Promise<void> => {
    while (next < REQUESTS) {
      const index = next++;
      // Generated synchronously in index order, so a seed gives the same requests whatever the timing.
      const request = fuzzRequest(random, credentials);
      const target = request.line.split(/[ \t]+/)[1] ?? '';
      const redirectable =
        /^(\*|\/+($|[?#]|portal|oauth2\/authorize))/.test(target) ||
        /\r\nHost: dev(eloper)?\./.test(request.bytes.toString('latin1'));
      const result = await exchange(port, request.bytes, request.head, request.truncated);
      const problems = result.answers.flatMap((answer) => answerProblems(answer, target, redirectable));
      if (result.answers.length > 0) answered++;
      // A reset is a connection that allowed no (more) answer; an answer cut short, garbled or never sent is a fault.
      if (result.broken !== undefined && !result.broken.startsWith('socket error')) problems.push(result.broken);
      if (problems.length > 0) failures.push({ index, line: request.line.slice(0, 200), problems });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { failures, answered };
}

test(`${REQUESTS} seeded malformed requests: every answer allowed and well-shaped, the service alive, the data unchanged`, async (t) => {
  const seed = fuzzSeed();
  const api = await build(t, { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_OPEN_PER_MINUTE: '0' });
  const other = await newAccount(api.app, api.storage);
  const guardedIds = await seedTenant(api, api.credentials.token);
  const otherIds = await seedTenant(api, other.token);
  const readOnly = await readOnlyToken(api);
  const before = await snapshot(api);
  const otherBefore = await snapshot(api, other.token);

  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as net.AddressInfo;
  const credentials: FuzzCredentials = {
    readOnly,
    other: other.token,
    clientId: other.clientId,
    clientSecret: other.clientSecret,
    ids: [...guardedIds, ...otherIds],
  };
  const { failures, answered } = await fuzz(port, new Random(seed), credentials);

  const replay = `replay with FUZZ_SEED=${seed} FUZZ_REQUESTS=${REQUESTS}`;
  const report = failures
    .slice(0, 15)
    .map((failure) => `#${failure.index} ${JSON.stringify(failure.line)}: ${failure.problems.join('; ')}`)
    .join('\n');
  assert.equal(failures.length, 0, `${failures.length} bad answers (seed ${seed}; ${replay}):\n${report}`);
  assert.ok(answered >= REQUESTS * 0.99, `only ${answered} of ${REQUESTS} requests got an answer (${replay})`);

  const health = await exchange(port, Buffer.from('GET /healthz HTTP/1.1\r\nHost: api.test\r\n\r\n'), false);
  assert.equal(health.answers[0]?.status, 200, `the service is alive after the fuzz (${replay})`);
  assert.equal(await snapshot(api), before, `the guarded tenant's data is unchanged (${replay})`);
  // The same fuzz did write the other tenant's data: its writes reached the handlers, so "unchanged" above means something.
  assert.notEqual(
    await snapshot(api, other.token),
    otherBefore,
    `the fuzz changed the other tenant's data (${replay})`,
  );
  const stillValid = await api.request({ url: '/v2/dogs', token: readOnly });
  assert.equal(stillValid.statusCode, 200, `no fuzz request revoked the guarded tenant's token (${replay})`);
});
