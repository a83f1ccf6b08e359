// Process entry: read the configuration, build the app, listen, shut down gracefully on SIGTERM/SIGINT, and back up
// the SQLite database online on SIGUSR2.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { isDriverFailure } from './storage/postgres/connection.js';

async function main(): Promise<void> {
  // A flag would be silently ignored (npm start -- --port 9000 still listening on 8080): said, rather.
  const args = process.argv.slice(2);
  if (args.length > 0)
    exitWith(
      `The service takes no command-line arguments, but it got ${args.map((arg) => JSON.stringify(arg)).join(' ')}: ` +
        'it is configured by environment variables (PORT=9000 npm start), which the configuration table in ' +
        'README.md lists.',
    );
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) exitWith(error.message);
    throw error;
  }
  const app = await buildApp(config);
  handleSignals(app, config);
  process.on('uncaughtException', (error) => {
    app.log.fatal({ err: error }, 'uncaught exception; exiting');
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    // The PostgreSQL driver can reject a broken connection's internal query with no one to catch it; its pool
    // reconnects, and the requests that used the connection have had their own error. Anything else is a bug.
    if (isDriverFailure(reason)) {
      app.log.error({ err: reason }, 'a PostgreSQL connection failed inside the driver; its pool reconnects');
      return;
    }
    app.log.fatal({ err: reason }, 'unhandled rejection; exiting');
    process.exit(1);
  });

  const address = await app.listen({ port: config.port, host: config.host }).catch((error: NodeJS.ErrnoException) => {
    // A name that does not resolve, or an address this machine does not have: say which setting.
    if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || error.code === 'EADDRNOTAVAIL') {
      throw new Error(
        `HOST ${config.host} cannot be listened on (${error.message}): set HOST to an address of this machine, or ` +
          'leave it unset to listen on all interfaces.',
        { cause: error },
      );
    }
    throw error;
  });
  app.log.info(
    { api: config.publicUrl, portal: config.portalUrl, listening: address },
    `Dog Registry Service ready: API at ${config.publicUrl}/v2 (and /v1), portal at ${config.portalUrl}, ` +
      `listening on ${address}`,
  );
  app.log.info(
    { signup: `${config.portalUrl}/signup`, token: `${config.publicUrl}/oauth2/token` },
    credentialsHowTo(config),
  );
}

/**
 * SIGTERM (and SIGINT): stop accepting connections, let requests in flight finish, close the
 * database, exit 0 (SPEC §10). Fastify's close does most of it: the server stops listening
 * and drops idle keep-alive connections, a request that arrives on a busy connection meanwhile
 * gets a retryable 500, and the onClose hook closes the storage. What it leaves open is the
 * keep-alive connection of a request in flight, which turns idle only once its answer is sent:
 * idle connections are closed again every few milliseconds until the server has closed.
 * (Nothing is tracked per request, so this costs nothing until the signal.)
 */
function handleSignals(app: FastifyInstance, config: Config): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error(
        { timeoutMs: config.shutdownTimeoutMs },
        'requests in flight did not finish in time; exiting anyway',
      );
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    const sweeper = setInterval(() => app.server.closeIdleConnections(), 20);
    sweeper.unref();
    try {
      await app.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    clearInterval(sweeper);
    app.log.info('stopped: requests in flight finished, database closed');
    process.exit(0);
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
  // SIGUSR2: an online backup of the SQLite database into <DATA_DIR>/backups (docs/deployment.md, Backups).
  process.on('SIGUSR2', () => void app.databaseBackup());
}

/** How to get credentials, printed at every start: three commands from nothing to an authorized request. */
function credentialsHowTo(config: Config): string {
  return [
    'To get credentials: sign up (once), get a token, call the API:',
    `  curl -s -H 'accept: application/json' -d email=you@example.com -d 'password=a long passphrase' -d ` +
      `appName=demo ${config.portalUrl}/signup`,
    `  curl -s -u '<clientId>:<clientSecret>' -d grant_type=client_credentials ${config.publicUrl}/oauth2/token`,
    `  curl -s -H 'authorization: Bearer <access_token>' ${config.publicUrl}/v2/dogs`,
    `(or open ${config.portalUrl}/signup in a browser)`,
  ].join('\n');
}

function exitWith(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

main().catch((error: unknown) => {
  exitWith(`The service could not start: ${error instanceof Error ? error.message : String(error)}`);
});
