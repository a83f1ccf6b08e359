import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, defaultPgPoolSize, loadConfig } from '../../src/config.js';

test('with nothing set, every variable takes its default from SPEC §11', () => {
  const config = loadConfig({});
  assert.deepEqual(config, {
    port: 8080,
    host: '0.0.0.0',
    publicUrl: 'http://localhost:8080',
    portalUrl: 'http://localhost:8080/portal',
    dataDir: path.resolve('data'),
    databaseUrl: undefined,
    pgPoolSize: defaultPgPoolSize(),
    logLevel: 'info',
    tokenTtlSeconds: 3600,
    rateLimitPerMinute: 6000,
    rateLimitOpenPerMinute: 600,
    ratesFile: undefined,
    ratesUrl: undefined,
    v1Sunset: undefined,
    v1Deprecated: '2026-11-21',
    shutdownTimeoutMs: 10000,
    metricsToken: undefined,
    compression: true,
    requestLog: true,
    requestLogDays: 7,
    searchCache: true,
    trustProxy: undefined,
  });
});

test('TRUST_PROXY is a comma-separated list of proxy addresses, ranges and proxy-addr names', () => {
  assert.deepEqual(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,uniquelocal,::1' }).trustProxy, [
    '127.0.0.1',
    '10.0.0.0/8',
    'uniquelocal',
    '::1',
  ]);
});

test('PG_POOL_SIZE defaults to twice the cores plus two, at most 10: 6 on this 2-core machine', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 8, 64].map((cores) => defaultPgPoolSize(cores)),
    [4, 6, 8, 10, 10, 10],
  );
  assert.equal(loadConfig({}).pgPoolSize, defaultPgPoolSize(os.availableParallelism()));
});

const derived: Array<{ env: Record<string, string>; expect: Record<string, unknown> }> = [
  {
    env: { PORT: '9000' },
    expect: { port: 9000, publicUrl: 'http://localhost:9000', portalUrl: 'http://localhost:9000/portal' },
  },
  {
    env: { PUBLIC_URL: 'https://api.example.com/' },
    expect: { publicUrl: 'https://api.example.com', portalUrl: 'https://api.example.com/portal' },
  },
  {
    env: { PUBLIC_URL: 'https://example.com/api//' },
    expect: { publicUrl: 'https://example.com/api', portalUrl: 'https://example.com/api/portal' },
  },
  {
    env: { PORTAL_URL: 'https://developer.example.com/' },
    expect: { publicUrl: 'http://localhost:8080', portalUrl: 'https://developer.example.com' },
  },
  { env: { DATA_DIR: 'var/db' }, expect: { dataDir: path.resolve('var/db') } },
  { env: { PORT: '', LOG_LEVEL: '' }, expect: { port: 8080, logLevel: 'info' } },
  { env: { COMPRESSION: 'off' }, expect: { compression: false } },
  { env: { COMPRESSION: 'on' }, expect: { compression: true } },
  { env: { COMPRESSION: '' }, expect: { compression: true } },
  { env: { SEARCH_CACHE: 'off' }, expect: { searchCache: false } },
  { env: { REQUEST_LOG: 'off' }, expect: { requestLog: false, requestLogDays: 7 } },
  { env: { REQUEST_LOG: 'on', REQUEST_LOG_DAYS: '1' }, expect: { requestLog: true, requestLogDays: 1 } },
  { env: { REQUEST_LOG_DAYS: '365' }, expect: { requestLogDays: 365 } },
  {
    env: { LOG_LEVEL: 'debug', TOKEN_TTL_SECONDS: '60', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_OPEN_PER_MINUTE: '0' },
    expect: { logLevel: 'debug', tokenTtlSeconds: 60, rateLimitPerMinute: 0, rateLimitOpenPerMinute: 0 },
  },
  {
    env: { V1_SUNSET: '2028-02-29', V1_DEPRECATED: '2027-01-31' },
    expect: { v1Sunset: '2028-02-29', v1Deprecated: '2027-01-31' },
  },
  {
    env: { DATABASE_URL: 'postgres://db.example.com/registry' },
    expect: { databaseUrl: 'postgres://db.example.com/registry' },
  },
  { env: { PG_POOL_SIZE: '1' }, expect: { pgPoolSize: 1 } },
  { env: { PG_POOL_SIZE: '1000', DATABASE_URL: 'postgres://db/registry' }, expect: { pgPoolSize: 1000 } },
  { env: { PG_POOL_SIZE: '' }, expect: { pgPoolSize: defaultPgPoolSize() } },
];

for (const { env, expect } of derived) {
  test(`${JSON.stringify(env)} gives ${JSON.stringify(expect)}`, () => {
    const config = loadConfig(env);
    for (const [key, value] of Object.entries(expect)) assert.equal(config[key as keyof typeof config], value, key);
  });
}

test('loadConfig reads only the environment it is given, not process.env', (t) => {
  const saved = process.env.PORT;
  t.after(() => {
    if (saved === undefined) delete process.env.PORT;
    else process.env.PORT = saved;
  });
  process.env.PORT = '1234';
  assert.equal(loadConfig({}).port, 8080);
});

/** A bad value: the variable at fault, and what the message must say about it. */
const invalid: Array<{ env: Record<string, string>; variable: string; says: RegExp }> = [
  { env: { PORT: 'abc' }, variable: 'PORT', says: /whole number from 0 to 65535/ },
  { env: { PORT: '70000' }, variable: 'PORT', says: /whole number from 0 to 65535/ },
  { env: { PORT: '-1' }, variable: 'PORT', says: /whole number from 0 to 65535/ },
  { env: { PORT: '0x50' }, variable: 'PORT', says: /whole number/ },
  { env: { PORT: '80.5' }, variable: 'PORT', says: /whole number/ },
  { env: { LOG_LEVEL: 'loud' }, variable: 'LOG_LEVEL', says: /one of fatal, error, warn, info, debug, trace, silent/ },
  { env: { PUBLIC_URL: 'notaurl' }, variable: 'PUBLIC_URL', says: /http:\/\/ or https:\/\// },
  { env: { PUBLIC_URL: 'http://[broken' }, variable: 'PUBLIC_URL', says: /http:\/\/ or https:\/\// },
  { env: { PORTAL_URL: 'ftp://portal.example.com' }, variable: 'PORTAL_URL', says: /http:\/\/ or https:\/\// },
  { env: { V1_SUNSET: '2026-13-45' }, variable: 'V1_SUNSET', says: /YYYY-MM-DD/ },
  { env: { V1_SUNSET: '2026-02-30' }, variable: 'V1_SUNSET', says: /YYYY-MM-DD/ },
  { env: { V1_DEPRECATED: 'next year' }, variable: 'V1_DEPRECATED', says: /YYYY-MM-DD/ },
  { env: { RATE_LIMIT_PER_MINUTE: '-1' }, variable: 'RATE_LIMIT_PER_MINUTE', says: /whole number from 0 to/ },
  {
    env: { RATE_LIMIT_OPEN_PER_MINUTE: 'lots' },
    variable: 'RATE_LIMIT_OPEN_PER_MINUTE',
    says: /whole number from 0 to 1000000000/,
  },
  { env: { TOKEN_TTL_SECONDS: '0' }, variable: 'TOKEN_TTL_SECONDS', says: /whole number from 1 to 315360000/ },
  // A lifetime past any date a token's expiry can carry made every token request a 500.
  { env: { TOKEN_TTL_SECONDS: '9000000000000' }, variable: 'TOKEN_TTL_SECONDS', says: /from 1 to 315360000/ },
  {
    env: { RATE_LIMIT_PER_MINUTE: '99999999999999999999' },
    variable: 'RATE_LIMIT_PER_MINUTE',
    says: /0 to 1000000000/,
  },
  // Node fires a timer longer than 2^31 - 1 ms at once: SIGTERM dropped the requests in flight.
  { env: { SHUTDOWN_TIMEOUT_MS: '3000000000' }, variable: 'SHUTDOWN_TIMEOUT_MS', says: /from 0 to 3600000/ },
  { env: { PUBLIC_URL: 'http://x.test/base?a=1' }, variable: 'PUBLIC_URL', says: /without a query or fragment/ },
  { env: { PORTAL_URL: 'http://x.test/portal#top' }, variable: 'PORTAL_URL', says: /without a query or fragment/ },
  { env: { PG_POOL_SIZE: '0' }, variable: 'PG_POOL_SIZE', says: /whole number from 1 to 1000/ },
  { env: { PG_POOL_SIZE: '1001' }, variable: 'PG_POOL_SIZE', says: /whole number from 1 to 1000/ },
  { env: { PG_POOL_SIZE: 'ten' }, variable: 'PG_POOL_SIZE', says: /whole number from 1 to 1000/ },
  { env: { PG_POOL_SIZE: '2.5' }, variable: 'PG_POOL_SIZE', says: /whole number/ },
  { env: { PG_POOL_SIZE: ' 8' }, variable: 'PG_POOL_SIZE', says: /whole number/ },
  { env: { DATABASE_URL: 'mysql://db.example.com/registry' }, variable: 'DATABASE_URL', says: /postgres:\/\// },
  // What the driver could not read: it failed with "Invalid URL" or "URI malformed", naming no variable.
  { env: { DATABASE_URL: 'postgres://db example.com/registry' }, variable: 'DATABASE_URL', says: /postgres:\/\// },
  { env: { DATABASE_URL: 'postgres://db.example.com:99999/registry' }, variable: 'DATABASE_URL', says: /:5432/ },
  { env: { DATABASE_URL: 'postgres://db.example.com/reg%zzistry' }, variable: 'DATABASE_URL', says: /postgres:\/\// },
  { env: { TRUST_PROXY: 'proxy.example.com' }, variable: 'TRUST_PROXY', says: /IP addresses, CIDR ranges/ },
  { env: { TRUST_PROXY: '10.0.0.0/99' }, variable: 'TRUST_PROXY', says: /IP addresses, CIDR ranges/ },
  { env: { TRUST_PROXY: '127.0.0.1,' }, variable: 'TRUST_PROXY', says: /IP addresses, CIDR ranges/ },
  { env: { COMPRESSION: 'yes' }, variable: 'COMPRESSION', says: /one of on, off/ },
  { env: { COMPRESSION: 'OFF' }, variable: 'COMPRESSION', says: /one of on, off/ },
  { env: { SEARCH_CACHE: 'no' }, variable: 'SEARCH_CACHE', says: /one of on, off/ },
  { env: { REQUEST_LOG: 'no' }, variable: 'REQUEST_LOG', says: /one of on, off/ },
  { env: { REQUEST_LOG_DAYS: '0' }, variable: 'REQUEST_LOG_DAYS', says: /whole number from 1 to 365/ },
  { env: { REQUEST_LOG_DAYS: '366' }, variable: 'REQUEST_LOG_DAYS', says: /whole number from 1 to 365/ },
  { env: { REQUEST_LOG_DAYS: 'week' }, variable: 'REQUEST_LOG_DAYS', says: /whole number from 1 to 365/ },
];

for (const { env, variable, says } of invalid) {
  const [value] = Object.values(env);
  test(`${variable}=${value} stops the service with a ConfigError that names ${variable} and the value`, () => {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, new RegExp(`\\b${variable} must be `));
        assert.match(error.message, says);
        assert.ok(error.message.includes(`"${value}"`), error.message);
        assert.doesNotMatch(error.message, /env\/|instancePath|anyOf/);
        return true;
      },
    );
  });
}

test('every bad variable is named in one message, so one restart fixes them all', () => {
  assert.throws(
    () => loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud', HOST: '127.0.0.1' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /PORT must be/);
      assert.match(error.message, /LOG_LEVEL must be/);
      assert.doesNotMatch(error.message, /HOST/);
      return true;
    },
  );
});

test('a bad DATABASE_URL is named with its password masked (start-up lines reach logs)', () => {
  for (const url of ['mysql://ann:s3cret@db.example.com/registry', 'postgres://ann:s3cret@db example.com/registry']) {
    assert.throws(
      () => loadConfig({ DATABASE_URL: url }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.ok(error.message.includes(`"${url.replace('s3cret', '***')}"`), error.message);
        assert.doesNotMatch(error.message, /s3cret/);
        return true;
      },
    );
  }
  // However malformed: no scheme, one slash, spaces before it, the password as a parameter.
  for (const url of [
    'postgres:/ann:s3cret@db.example.com/registry',
    'ann:s3cret@db.example.com/registry',
    ' postgres://ann:s3cret@db.example.com/registry',
    'postgres://ann:s3:cret@db example.com/registry',
    'postgres://db example.com/registry?user=ann&password=s3cret',
  ]) {
    assert.throws(
      () => loadConfig({ DATABASE_URL: url }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError, url);
        assert.match(error.message, /DATABASE_URL must be/, url);
        assert.doesNotMatch(error.message, /s3/, url);
        return true;
      },
    );
  }
});

test('a bad METRICS_TOKEN is refused without its value in the message (start-up lines reach logs)', () => {
  assert.throws(
    () => loadConfig({ METRICS_TOKEN: 'short secret' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /METRICS_TOKEN must be .*, but it is a secret of 12 characters \(not shown\)\./);
      assert.doesNotMatch(error.message, /short secret/);
      return true;
    },
  );
});
