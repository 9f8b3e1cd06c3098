/**
 * Calls `expire` once `ms` have passed, unless the returned cancel is called first. A timer runs when the event loop
 * gets to it, and a busy process (a loaded host, a run of database work that holds the loop) gets there late: in
 * that turn the timers run before the I/O that completed meanwhile is handled, so a connection made or an answer
 * received in time would lose to its deadline. `expire` waits for the rest of that turn: the I/O handled in it can
 * cancel first.
 */
export function deadline(ms: number, expire: () => void): () => void {
  let afterIo: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    afterIo = setImmediate(expire);
  }, ms);
  return () => {
    clearTimeout(timer);
    if (afterIo) clearImmediate(afterIo);
  };
}
