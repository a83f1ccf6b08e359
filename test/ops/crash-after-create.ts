// Test-only process entry: the real app on the configured storage, killed (SIGKILL) the moment a create has committed, before its answer is sent.
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createStorage } from '../../src/storage/create-storage.js';
import type { Storage } from '../../src/storage/storage.js';

const config = loadConfig();
const storage = await createStorage(config);

/** The storage, except that `create` ends the process as soon as its transaction has committed: a crash between write and answer. */
const crashing = new Proxy(storage, {
  get(target, name) {
    if (name === 'create') {
      return async (...args: Parameters<Storage['create']>) => {
        await target.create(...args);
        process.kill(process.pid, 'SIGKILL');
      };
    }
    const value: unknown = Reflect.get(target, name, target);
    return typeof value === 'function' ? value.bind(target) : value;
  },
});

const app = await buildApp(config, { storage: crashing });
await app.listen({ port: config.port, host: config.host });
