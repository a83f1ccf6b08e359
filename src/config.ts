// Environment → typed, validated Config; a bad value stops the service at start with a clear message.
import path from 'node:path';
import { envSchema } from 'env-schema';
import { Type, type Static } from '@sinclair/typebox';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const DATE = '^\\d{4}-\\d{2}-\\d{2}$';

/** The variables of SPEC §11, typed once: the schema is the documentation and the validator. */
export const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'TCP port to listen on' }),
  HOST: Type.String({ default: '0.0.0.0', minLength: 1, description: 'address to listen on (all interfaces by default)' }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'the public API root, {base}; default http://localhost:<PORT>' })),
  PORTAL_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'the developer portal, {portal}; default {base}/portal' })),
  DATA_DIR: Type.String({ default: './data', minLength: 1, description: 'folder of the embedded SQLite database' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'postgres://… selects PostgreSQL; unset means SQLite' })),
  LOG_LEVEL: Type.Union(LOG_LEVELS.map((level) => Type.Literal(level)), { default: 'info' }),
  TOKEN_TTL_SECONDS: Type.Integer({ minimum: 1, default: 3600 }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 0, default: 6000 }),
  RATE_LIMIT_OPEN_PER_MINUTE: Type.Integer({ minimum: 0, default: 600 }),
  RATES_FILE: Type.Optional(Type.String({ minLength: 1 })),
  RATES_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  V1_SUNSET: Type.Optional(Type.String({ pattern: DATE })),
  V1_DEPRECATED: Type.String({ pattern: DATE, default: '2026-11-21' }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10000, description: 'how long SIGTERM waits for requests in flight' }),
});

type Env = Static<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  /** {base}: the public API root, without a trailing slash. */
  publicUrl: string;
  /** {portal}: the developer portal, without a trailing slash. */
  portalUrl: string;
  dataDir: string;
  databaseUrl?: string;
  logLevel: Env['LOG_LEVEL'];
  tokenTtlSeconds: number;
  rateLimitPerMinute: number;
  rateLimitOpenPerMinute: number;
  ratesFile?: string;
  ratesUrl?: string;
  v1Sunset?: string;
  v1Deprecated: string;
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {}

/** Reads and validates the environment; throws ConfigError naming the variable at fault. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  let parsed: Env;
  try {
    parsed = envSchema<Env>({ schema: EnvSchema, data: pickSet(env), dotenv: false });
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}. See the configuration table in README.md.`);
  }
  for (const name of ['V1_SUNSET', 'V1_DEPRECATED'] as const) {
    const value = parsed[name];
    if (value !== undefined && Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      throw new ConfigError(`Invalid configuration: ${name} must be a real date written YYYY-MM-DD, got "${value}".`);
    }
  }
  const publicUrl = trimSlash(parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`);
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    publicUrl,
    portalUrl: trimSlash(parsed.PORTAL_URL ?? `${publicUrl}/portal`),
    dataDir: path.resolve(parsed.DATA_DIR),
    databaseUrl: parsed.DATABASE_URL,
    logLevel: parsed.LOG_LEVEL,
    tokenTtlSeconds: parsed.TOKEN_TTL_SECONDS,
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE,
    rateLimitOpenPerMinute: parsed.RATE_LIMIT_OPEN_PER_MINUTE,
    ratesFile: parsed.RATES_FILE,
    ratesUrl: parsed.RATES_URL,
    v1Sunset: parsed.V1_SUNSET,
    v1Deprecated: parsed.V1_DEPRECATED,
    shutdownTimeoutMs: parsed.SHUTDOWN_TIMEOUT_MS,
  };
}

/** Only the variables of the schema, and only those set to something: an empty value means unset. */
function pickSet(env: NodeJS.ProcessEnv): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of Object.keys(EnvSchema.properties)) {
    const value = env[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  return picked;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
