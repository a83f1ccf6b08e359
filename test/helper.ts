// Test helper: builds an app per test on its own empty database, and sends every request through one function.
//
// The database is an in-memory SQLite, or, when TEST_DATABASE_URL is set (npm test's second run), a migrated
// PostgreSQL schema emptied for the test (test/pg/databases.ts): the same tests cover both backends.
import { after, type TestContext } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { XMLValidator } from 'fast-xml-parser';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { SqliteStorage } from '../src/storage/sqlite/sqlite-storage.js';
import type { Storage } from '../src/storage/storage.js';
import { dropLentSchema, reusedPostgresStorage, TEST_DATABASE_URL } from './pg/databases.js';
import { newId } from '../src/storage/ids.js';
import { randomSecret, secretHash } from '../src/auth/secrets.js';
import { recordTraffic } from './openapi/traffic-recorder.js';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  storage: Storage;
  /** The account (tenant) every request acts for unless it names another token. */
  credentials: Credentials;
  /** Sends one request to the app with the account's bearer token; every test request goes through here. */
  request(options: RequestOptions): Promise<LightMyRequestResponse>;
}

export interface Credentials {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  token: string;
}

export interface RequestOptions {
  method?: InjectOptions['method'];
  url: string;
  headers?: Record<string, string>;
  /** A JSON body (sent as application/json). */
  json?: unknown;
  /** A form body (sent as application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** A raw body, with whatever Content-Type the headers give. */
  body?: string | Buffer;
  /** The bearer token to send: the account's by default, another one, or null for none. */
  token?: string | null;
}

export const BASE = 'http://api.test';

// The schema the file's tests took turns on is dropped after its last test.
if (TEST_DATABASE_URL) after(dropLentSchema);

// With RECORD_TRAFFIC=<dir> (npm test's SQLite run), every app's exchanges are kept for the OpenAPI replay check.
const RECORD_TRAFFIC = process.env.RECORD_TRAFFIC;

/** Builds the app with the given environment over defaults, and closes it (and drops its database) when the test ends. */
export async function build(
  t: TestContext,
  env: Record<string, string> = {},
  given?: Storage,
  options: Pick<AppOptions, 'sessions' | 'clock' | 'requestTimeoutMs'> = {},
): Promise<TestApp> {
  const config = loadConfig({ PUBLIC_URL: BASE, LOG_LEVEL: 'silent', ...env });
  let storage = given;
  let release: (() => Promise<void>) | undefined;
  if (!storage) ({ storage, release } = await ownStorage());
  // Assigned once built; the cleanup registered before it also runs when the build fails.
  let app: FastifyInstance | undefined = undefined;
  t.after(async () => {
    await app?.close();
    // The app closes its storage; one it never got to use is closed here.
    if (!given) await storage.close();
    await release?.();
  });
  app = await buildApp(config, { storage, logger: false, ...options });
  if (RECORD_TRAFFIC) recordTraffic(app, RECORD_TRAFFIC);
  const built = app;
  const credentials = await newAccount(built, storage);
  return { app: built, config, storage, credentials, request: (options) => send(built, options, credentials.token) };
}

/** Creates an account (a tenant) with one client holding both scopes, and a valid access token of it, in the storage. */
export async function newAccount(
  _app: FastifyInstance,
  storage: Storage,
  scopes: readonly string[] = ['read', 'write'],
): Promise<Credentials> {
  const tenantId = newId();
  const clientId = newId();
  const clientSecret = randomSecret();
  await storage.auth.createAccount({
    accountId: tenantId,
    email: `${tenantId}@example.test`,
    passwordHash: 'not-used-by-tests',
    client: { id: clientId, name: 'test app', secretHash: secretHash(clientSecret), scopes },
  });
  const token = randomSecret();
  const issuedAt = Math.floor(Date.now() / 1000);
  await storage.auth.saveToken({
    tokenHash: secretHash(token),
    tenantId,
    clientId,
    scopes,
    issuedAt,
    expiresAt: issuedAt + 3600,
    revoked: false,
  });
  return { tenantId, clientId, clientSecret, token };
}

/** The test's own database: PostgreSQL when the run names a server (a schema emptied for it), else SQLite in memory. */
async function ownStorage(): Promise<{ storage: Storage; release?: () => Promise<void> }> {
  if (TEST_DATABASE_URL) return reusedPostgresStorage();
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  return { storage };
}

async function send(
  app: FastifyInstance,
  options: RequestOptions,
  defaultToken: string,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? defaultToken : options.token;
  if (token !== null && headers.authorization === undefined) headers.authorization = `Bearer ${token}`;
  let payload: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(options.form).toString();
  }
  const response = await app.inject({ method: options.method ?? 'GET', url: options.url, headers, payload });
  assertWellFormedXml(response);
  return response;
}

// What XML 1.0 cannot carry (SPEC §13), written apart from the service's own rule so the check does not share its bugs.
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is this pattern's whole job
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every XML answer the suite gets must parse with a strict parser (SPEC §13): a test fails on one that does not. */
export function assertWellFormedXml(response: Pick<LightMyRequestResponse, 'headers' | 'body'>): void {
  const type = response.headers['content-type'];
  if (typeof type !== 'string' || !/[/+]xml\b/.test(type) || response.body === '') return;
  const body = decodedBody(response);
  const result = XMLValidator.validate(body);
  if (result !== true) throw new Error(`the XML answer does not parse: ${result.err.msg}\n${body}`);
  if (NOT_XML.test(body))
    throw new Error(`the XML answer carries a character XML 1.0 forbids:\n${JSON.stringify(body)}`);
}

/** The body as sent before any compression (SPEC §13): gzip and br are undone (raw-socket answers come decoded). */
function decodedBody(response: Pick<LightMyRequestResponse, 'headers' | 'body'> & { rawPayload?: Buffer }): string {
  const coding = response.headers['content-encoding'];
  const raw = response.rawPayload;
  if (raw === undefined) return response.body;
  if (coding === 'gzip') return gunzipSync(raw).toString('utf8');
  if (coding === 'br') return brotliDecompressSync(raw).toString('utf8');
  return response.body;
}

/** Creates a dog through the API and returns its representation. */
export async function createDog(api: TestApp, fields: Record<string, string>): Promise<Record<string, string | null>> {
  const response = await api.request({ method: 'POST', url: '/v1/dogs', form: fields });
  if (response.statusCode !== 200) throw new Error(`creating a dog failed: ${response.statusCode} ${response.body}`);
  return response.json().dog;
}

/** Creates an item of any resource through the API (JSON body) and returns its representation. */
export async function createItem(
  api: TestApp,
  resource: string,
  body: Record<string, unknown>,
  token?: string,
): Promise<Record<string, string | null>> {
  const response = await api.request({ method: 'POST', url: `/v1/${resource}`, json: body, token });
  if (response.statusCode !== 200)
    throw new Error(`creating ${resource} failed: ${response.statusCode} ${response.body}`);
  return Object.values(response.json())[0] as Record<string, string | null>;
}

/** The names of the dogs a collection URL answers, in order (the answer must be a 200). */
export async function dogNames(api: TestApp, url: string): Promise<string[]> {
  const response = await api.request({ url });
  if (response.statusCode !== 200) throw new Error(`GET ${url} answered ${response.statusCode}: ${response.body}`);
  return response.json().dogs.map((entry: { dog: { name: string } }) => entry.dog.name);
}
