// Test helper: runs the real service (src/server.ts) as a child process and talks to it over TCP.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { EnvSchema } from '../../src/config.js';

import { REPO_ROOT } from '../repo-root.js';

/** Bounds on waiting for the service: tries × pause, never an open-ended wait. */
const TRIES = 100;
const PAUSE_MS = 100;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Service {
  child: ChildProcess;
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  dataDir: string;
  /** Every stdout line so far (the JSON log). */
  stdout: string[];
  stderr(): string;
  exited: Promise<Exit>;
}

export interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A fresh temporary DATA_DIR, removed when the test ends. */
export function tempDataDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dog-registry-ops-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A port nobody listens on right now: the OS picks one, and we release it. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The process entry: the service's own, or a test's entry script (a path from the project root). */
const SERVER = 'src/server.ts';

/**
 * How node runs an entry: from this helper's compiled copy (npm test runs .test-build/test/…), the entry's compiled
 * JavaScript in the same copy; from its TypeScript (a file run by hand), through tsx. A start through tsx costs about
 * 1.7 CPU-seconds more, which on a busy machine ate into startService's bound.
 */
function entryArguments(entry: string): string[] {
  if (!import.meta.filename.endsWith('.js')) return ['--import', 'tsx', entry];
  const copy = path.resolve(import.meta.dirname, '../..');
  return ['--enable-source-maps', path.join(copy, entry.replace(/\.ts$/, '.js'))];
}

/** Starts the process with the service's variables taken only from `env` (none inherited). */
export function spawnService(
  t: TestContext,
  env: Record<string, string>,
  entry = SERVER,
  args: readonly string[] = [],
): Omit<Service, 'port' | 'origin' | 'dataDir'> {
  const inherited = { ...process.env };
  for (const name of Object.keys(EnvSchema.properties)) delete inherited[name];
  const child = spawn(process.execPath, [...entryArguments(entry), ...args], {
    cwd: REPO_ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    stdout.push(...lines.filter((line) => line !== ''));
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, stdout, stderr: () => stderr, exited };
}

/** Starts the service on a free port and waits until /healthz answers 200. */
export async function startService(
  t: TestContext,
  dataDir: string,
  env: Record<string, string> = {},
  entry = SERVER,
): Promise<Service> {
  const port = await freePort();
  const started = spawnService(
    t,
    { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    entry,
  );
  const service: Service = { ...started, port, origin: `http://127.0.0.1:${port}`, dataDir };
  await waitUntilHealthy(service);
  return service;
}

async function waitUntilHealthy(service: Service): Promise<void> {
  for (let attempt = 0; attempt < TRIES; attempt++) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) {
      throw new Error(`the service exited before it was healthy: ${service.stderr()}`);
    }
    try {
      if ((await request(service, { path: '/healthz' })).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await pause();
  }
  throw new Error(`the service was not healthy after ${TRIES} tries: ${service.stderr()}`);
}

/** Waits (bounded) until a log line satisfies `match`, and returns it parsed. */
export async function waitForLog(
  service: Service,
  match: (entry: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const found = service.stdout.map(parseLine).find(match);
    if (found) return found;
    await pause();
  }
  throw new Error(`no log line matched after ${TRIES} tries; the log was:\n${service.stdout.join('\n')}`);
}

/** Waits (bounded) until `check` resolves true. */
export async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < TRIES; attempt++) {
    if (await check()) return;
    await pause();
  }
  throw new Error(`${what} did not happen after ${TRIES} tries`);
}

export function parseLine(line: string): Record<string, unknown> {
  return JSON.parse(line) as Record<string, unknown>;
}

/** One HTTP request on its own connection (no keep-alive pool between tests). */
export function request(
  service: Pick<Service, 'port'>,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: service.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

let signups = 0;

/** Signs up over HTTP (the portal's JSON sign-up) and gets a token: the Authorization header to send. */
export async function authorize(service: Pick<Service, 'port'>): Promise<Record<string, string>> {
  signups += 1;
  const signup = await request(service, {
    method: 'POST',
    path: '/portal/signup',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      email: `ops${signups}-${process.pid}-${Date.now()}@example.com`,
      password: 'correct horse battery',
      appName: 'ops test',
    }),
  });
  if (signup.status !== 200) throw new Error(`sign-up failed: ${signup.status} ${signup.body}`);
  const { clientId, clientSecret } = JSON.parse(signup.body).client as { clientId: string; clientSecret: string };
  const token = await request(service, {
    method: 'POST',
    path: '/oauth2/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  if (token.status !== 200) throw new Error(`token request failed: ${token.status} ${token.body}`);
  return { authorization: `Bearer ${JSON.parse(token.body).access_token as string}` };
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
}
