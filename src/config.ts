// Environment → typed, validated Config; a bad value stops the service at start with a clear message.
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { envSchema } from 'env-schema';
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const SWITCH = ['on', 'off'] as const;
const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const HTTP_URL = '^https?://\\S+$';
/** {base} and {portal} get paths appended (the issuer, the endpoints, more_info): no query or fragment to split them. */
const BASE_URL = '^https?://[^\\s?#]+$';

/**
 * The variables of SPEC §11, typed once: the schema is the documentation and the validator.
 * A string variable's `description` says what it accepts; error messages quote it.
 */
export const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'the TCP port to listen on' }),
  HOST: Type.String({
    default: '0.0.0.0',
    minLength: 1,
    description: 'an IP address or host name of this machine to listen on (all interfaces by default)',
  }),
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: BASE_URL,
      description: 'an absolute http:// or https:// URL without a query or fragment, the public API root {base}',
    }),
  ),
  PORTAL_URL: Type.Optional(
    Type.String({
      pattern: BASE_URL,
      description: 'an absolute http:// or https:// URL without a query or fragment, the developer portal {portal}',
    }),
  ),
  DATA_DIR: Type.String({ default: './data', minLength: 1, description: 'the folder of the embedded SQLite database' }),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description:
        'a postgres:// URL such as postgres://user:password@host:5432/database (unset means the embedded SQLite)',
    }),
  ),
  PG_POOL_SIZE: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'the connections of each node to PostgreSQL' }),
  ),
  LOG_LEVEL: Type.Unsafe<(typeof LOG_LEVELS)[number]>({ type: 'string', enum: [...LOG_LEVELS], default: 'info' }),
  // Upper bounds keep each value where its arithmetic holds: an expiry a date can carry, a count exact in a number.
  TOKEN_TTL_SECONDS: Type.Integer({ minimum: 1, maximum: 315_360_000, default: 3600 }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 6000 }),
  RATE_LIMIT_OPEN_PER_MINUTE: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 600 }),
  RATES_FILE: Type.Optional(
    Type.String({ minLength: 1, description: 'the path of an ECB euro reference rates XML file' }),
  ),
  RATES_URL: Type.Optional(
    Type.String({ pattern: HTTP_URL, description: 'an http:// or https:// URL of ECB euro reference rates XML' }),
  ),
  V1_SUNSET: Type.Optional(Type.String({ pattern: DATE, description: 'a date written YYYY-MM-DD' })),
  V1_DEPRECATED: Type.String({ pattern: DATE, default: '2026-11-21', description: 'a date written YYYY-MM-DD' }),
  TRUST_PROXY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'the addresses of the proxies in front of the service, comma-separated: IP addresses, CIDR ranges such ' +
        'as 10.0.0.0/8, or loopback, linklocal, uniquelocal',
    }),
  ),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      pattern: '^[\\x21-\\x7E]{16,}$',
      description: 'a secret of at least 16 visible ASCII characters (no spaces) that /metrics then asks for',
    }),
  ),
  COMPRESSION: Type.Unsafe<(typeof SWITCH)[number]>({ type: 'string', enum: [...SWITCH], default: 'on' }),
  REQUEST_LOG: Type.Unsafe<(typeof SWITCH)[number]>({ type: 'string', enum: [...SWITCH], default: 'on' }),
  SEARCH_CACHE: Type.Unsafe<(typeof SWITCH)[number]>({ type: 'string', enum: [...SWITCH], default: 'on' }),
  REQUEST_LOG_DAYS: Type.Integer({
    minimum: 1,
    maximum: 365,
    default: 7,
    description: 'how many days the request log keeps',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    minimum: 0,
    // An hour; a timer cannot wait longer than 2^31 - 1 ms, and Node fires a longer one at once.
    maximum: 3_600_000,
    default: 10000,
    description: 'how long SIGTERM waits for requests in flight',
  }),
});

type Env = Static<typeof EnvSchema>;
type Variable = keyof Env;

export interface Config {
  port: number;
  host: string;
  /** {base}: the public API root, without a trailing slash. */
  publicUrl: string;
  /** {portal}: the developer portal, without a trailing slash. */
  portalUrl: string;
  dataDir: string;
  databaseUrl?: string;
  /** The most connections this node's pool opens to PostgreSQL (PG_POOL_SIZE, else defaultPgPoolSize()). */
  pgPoolSize: number;
  logLevel: Env['LOG_LEVEL'];
  tokenTtlSeconds: number;
  rateLimitPerMinute: number;
  rateLimitOpenPerMinute: number;
  ratesFile?: string;
  ratesUrl?: string;
  v1Sunset?: string;
  v1Deprecated: string;
  shutdownTimeoutMs: number;
  /** The bearer token /metrics asks for; unset, /metrics is open. */
  metricsToken?: string;
  /** Whether answers over 1 KiB are compressed here (SPEC §13); off leaves it to a proxy in front. */
  compression: boolean;
  /** Whether every API request is recorded for the portal's request log (SPEC §12). */
  requestLog: boolean;
  /** How many days the request log keeps an entry. */
  requestLogDays: number;
  /** Whether a node keeps search answers under their tenant's write stamp (storage/search-cache.ts). */
  searchCache: boolean;
  /**
   * The proxies whose X-Forwarded-For is believed: a request from one of them is taken to come
   * from the address it forwards for (per-address rate limits, logs). Unset: the TCP peer.
   */
  trustProxy?: string[];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads and validates the environment; throws ConfigError naming every variable at fault. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = pickSet(env);
  const parsed = validate(raw);
  const publicUrl = trimSlash(parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`);
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    publicUrl,
    portalUrl: trimSlash(parsed.PORTAL_URL ?? `${publicUrl}/portal`),
    dataDir: path.resolve(parsed.DATA_DIR),
    databaseUrl: parsed.DATABASE_URL,
    pgPoolSize: parsed.PG_POOL_SIZE ?? defaultPgPoolSize(),
    logLevel: parsed.LOG_LEVEL,
    tokenTtlSeconds: parsed.TOKEN_TTL_SECONDS,
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE,
    rateLimitOpenPerMinute: parsed.RATE_LIMIT_OPEN_PER_MINUTE,
    ratesFile: parsed.RATES_FILE,
    ratesUrl: parsed.RATES_URL,
    v1Sunset: parsed.V1_SUNSET,
    v1Deprecated: parsed.V1_DEPRECATED,
    shutdownTimeoutMs: parsed.SHUTDOWN_TIMEOUT_MS,
    metricsToken: parsed.METRICS_TOKEN,
    compression: parsed.COMPRESSION === 'on',
    requestLog: parsed.REQUEST_LOG === 'on',
    requestLogDays: parsed.REQUEST_LOG_DAYS,
    searchCache: parsed.SEARCH_CACHE === 'on',
    trustProxy: parsed.TRUST_PROXY === undefined ? undefined : proxyList(parsed.TRUST_PROXY),
  };
}

/**
 * PG_POOL_SIZE unset: PostgreSQL's rule of thumb, twice the cores plus a few, from this machine's cores, and at
 * most 10. A node runs its JavaScript on one thread, so a bigger machine does not make it ask for much more at
 * once; beyond 10 a pool mostly moves the queue into PostgreSQL, and every node's pool counts against the
 * database's max_connections (docs/deployment.md, PostgreSQL connections).
 */
export function defaultPgPoolSize(cores = os.availableParallelism()): number {
  return Math.min(2 * cores + 2, 10);
}

/** Schema validation plus the checks a schema cannot say (whole numbers as written, real dates, parseable URLs). */
function validate(raw: Record<string, string>): Env {
  const faults = new Map<Variable, string>();
  for (const name of variables()) {
    const value = raw[name];
    // The validator coerces "0x50" or " 80" to a number; a port or a limit is written in plain digits.
    if (value !== undefined && EnvSchema.properties[name].type === 'integer' && !/^-?\d+$/.test(value))
      faults.set(name, fault(name, value));
  }
  let parsed: Env | undefined;
  try {
    // env: false — only the variables given are read, so loadConfig(env) never sees process.env.
    parsed = envSchema<Env>({ schema: EnvSchema, data: { ...raw }, env: false, dotenv: false });
  } catch (error) {
    for (const issue of (error as { errors?: Array<{ instancePath: string }> }).errors ?? []) {
      const name = issue.instancePath.slice(1) as Variable;
      if (name in EnvSchema.properties && !faults.has(name)) faults.set(name, fault(name, raw[name] ?? ''));
    }
    if (faults.size === 0) throw new ConfigError(`Invalid configuration: ${(error as Error).message}.`);
  }
  if (parsed) {
    for (const name of ['V1_SUNSET', 'V1_DEPRECATED'] as const) {
      const value = parsed[name];
      if (value !== undefined && !isRealDate(value)) faults.set(name, fault(name, value));
    }
    for (const name of ['PUBLIC_URL', 'PORTAL_URL', 'RATES_URL'] as const) {
      const value = parsed[name];
      if (value !== undefined && !URL.canParse(value)) faults.set(name, fault(name, value));
    }
    if (parsed.DATABASE_URL !== undefined && !isDatabaseUrl(parsed.DATABASE_URL))
      faults.set('DATABASE_URL', fault('DATABASE_URL', parsed.DATABASE_URL));
    if (!isHostName(parsed.HOST)) faults.set('HOST', fault('HOST', parsed.HOST));
    if (parsed.TRUST_PROXY !== undefined && !isProxyList(parsed.TRUST_PROXY))
      faults.set('TRUST_PROXY', fault('TRUST_PROXY', parsed.TRUST_PROXY));
  }
  if (faults.size > 0 || !parsed) {
    throw new ConfigError(
      `Invalid configuration: ${[...faults.values()].join(' ')} See the configuration table in README.md.`,
    );
  }
  return parsed;
}

function variables(): Variable[] {
  return Object.keys(EnvSchema.properties) as Variable[];
}

/** Variables whose value is a secret: a fault says how long it is, never what it is (start-up lines reach logs). */
const SECRETS: ReadonlySet<Variable> = new Set(['METRICS_TOKEN']);

/**
 * A database URL as a start-up line or a log shows it: whatever could be its password hidden, however malformed the URL
 * is (no scheme, one slash, spaces before it): from the first colon of the user part to the last `@`, and a
 * `password=` parameter. Hiding the user's name too, in a URL too broken to tell, is the safe way to be wrong.
 */
export function redactedUrl(url: string): string {
  const hidden = url.replace(/(password=)[^&#\s]*/gi, '$1***');
  const at = hidden.lastIndexOf('@');
  if (at < 0) return hidden;
  const head = hidden.slice(0, at);
  const slashes = head.indexOf('//');
  const colon = head.indexOf(':', slashes < 0 ? 0 : slashes + 2);
  return colon < 0 ? hidden : `${head.slice(0, colon + 1)}***${hidden.slice(at)}`;
}

/** One sentence naming the variable, what it takes and what it got. */
function fault(name: Variable, value: string): string {
  const got = SECRETS.has(name)
    ? `a secret of ${[...value].length} characters (not shown)`
    : `"${name === 'DATABASE_URL' ? redactedUrl(value) : value}"`;
  return `${name} must be ${accepted(EnvSchema.properties[name])}, but it is ${got}.`;
}

function accepted(schema: TSchema): string {
  if (schema.type === 'integer') {
    const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
    if (minimum !== undefined && maximum !== undefined) return `a whole number from ${minimum} to ${maximum}`;
    if (minimum !== undefined) return `a whole number, ${minimum} or more`;
    return 'a whole number';
  }
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`;
  return schema.description ?? 'a valid value';
}

/** A DNS name (RFC 1123 labels) or an IP address: what a server can listen on. Digits and dots only must be IPv4. */
const DNS_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function isHostName(value: string): boolean {
  if (isIP(value) !== 0) return true;
  return DNS_NAME.test(value) && !/^[\d.]+$/.test(value);
}

function proxyList(value: string): string[] {
  return value.split(',').map((entry) => entry.trim());
}

/** Whether Fastify's proxy-addr (what it trusts the list with) accepts every entry. */
function isProxyList(value: string): boolean {
  try {
    proxyAddr.compile(proxyList(value));
    return true;
  } catch {
    return false;
  }
}

/** A URL the PostgreSQL driver can read: it parses, with a port up to 65535 and %-escapes that decode. */
function isDatabaseUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  try {
    for (const part of [url.username, url.password, url.hostname, url.pathname]) decodeURIComponent(part);
  } catch {
    return false;
  }
  return true;
}

/** `2026-02-30` matches the pattern but is no day of the calendar. */
function isRealDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** Only the variables of the schema, and only those set to something: an empty value means unset. */
function pickSet(env: NodeJS.ProcessEnv): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of variables()) {
    const value = env[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  return picked;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
