// Test helper: builds an app per test on its own in-memory database, and sends every request through one function.
import type { TestContext } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { SqliteStorage } from '../src/storage/sqlite/sqlite-storage.js';
import type { Storage } from '../src/storage/storage.js';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** Sends one request to the app; every test request goes through here. */
  request(options: RequestOptions): Promise<LightMyRequestResponse>;
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
}

export const BASE = 'http://api.test';

/** Builds the app with the given environment over defaults, and closes it when the test ends. */
export async function build(t: TestContext, env: Record<string, string> = {}, given?: Storage): Promise<TestApp> {
  const config = loadConfig({ PUBLIC_URL: BASE, LOG_LEVEL: 'silent', ...env });
  const storage = given ?? new SqliteStorage(':memory:');
  if (!given) await storage.migrate();
  const app = await buildApp(config, { storage, logger: false });
  t.after(() => app.close());
  return { app, config, request: (options) => send(app, options) };
}

async function send(app: FastifyInstance, options: RequestOptions): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(options.form).toString();
  }
  return app.inject({ method: options.method ?? 'GET', url: options.url, headers, payload });
}

/** Creates a dog through the API and returns its representation. */
export async function createDog(api: TestApp, fields: Record<string, string>): Promise<Record<string, string | null>> {
  const response = await api.request({ method: 'POST', url: '/v1/dogs', form: fields });
  if (response.statusCode !== 200) throw new Error(`creating a dog failed: ${response.statusCode} ${response.body}`);
  return response.json().dog;
}
