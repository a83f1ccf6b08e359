// Process entry: read the configuration, build the app, listen, and shut down gracefully on SIGTERM/SIGINT.
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp(config);
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error('requests in flight did not finish in time; exiting anyway');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    await app.close();
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ api: config.publicUrl, portal: config.portalUrl }, `Dog Registry Service ready: API at ${config.publicUrl}/v2, portal at ${config.portalUrl}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`The service could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
