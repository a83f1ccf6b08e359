// Answers leave in batches: the ones ready in one turn of the event loop are written together at its end.
//
// Every answer written to a socket wakes the process reading the other end (a client, or a proxy
// on the same host) if it sleeps. Written one by one between the parsing of other requests, each
// answer finds its reader asleep again and pays for a wake-up, which under load costs more CPU
// than the write itself. Written back to back, the first answer wakes the reader and the next
// ones find it awake. Redis writes its replies at the end of each loop turn for the same reason.
// An answer waits at most for the requests read in the same turn; see docs/performance.md.

let endOfTurn: Promise<void> | undefined;

/** Resolves in the check phase of this turn of the event loop, after every request read in it was handled. */
export function answersLeave(): Promise<void> {
  endOfTurn ??= new Promise((resolve) => {
    setImmediate(() => {
      endOfTurn = undefined;
      resolve();
    });
  });
  return endOfTurn;
}
