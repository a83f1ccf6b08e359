// The service's own entry, with a promise rejected where no one holds it once the service is up (STRAY_REJECTION):
// `driver`, as postgres 3.4 rejects a broken connection's internal query, or `bug`, any other error. The rejection
// waits for the service's handler: on a loaded machine, start-up can take longer than any fixed delay.
const kind = process.env.STRAY_REJECTION;
const reject = (): void => {
  if (process.listenerCount('unhandledRejection') === 0) {
    setTimeout(reject, 50);
    return;
  }
  const error =
    kind === 'driver'
      ? Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' })
      : new TypeError('a bug nobody awaited');
  void Promise.reject(error);
};
setTimeout(reject, 50);
await import('../../src/server.js');
