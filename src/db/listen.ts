/** The `pg` module, imported when a PostgreSQL database is opened. */
type PgDriver = typeof import("pg").default;

/** A LISTEN in progress. */
export interface Listening {
  /** False while its connection is lost and being re-established: NOTIFYs sent meanwhile do not reach it. */
  healthy(): boolean;
  /** Stops listening (and reconnecting). */
  close(): Promise<void>;
}

/** Reconnection delays of a lost LISTEN: 100 ms, doubling up to 5 s. */
const firstReconnectDelayMs = 100;
const maxReconnectDelayMs = 5_000;
/**
 * A LISTEN connection is probed this often, and counted lost when the probe is not answered in `listenProbeTimeoutMs`:
 * a connection that died silently (a partition: no error until TCP gives up, minutes later) would drop NOTIFYs
 * unnoticed meanwhile. Together they bound that blind time to 3 s.
 */
const listenProbeIntervalMs = 1_000;
const listenProbeTimeoutMs = 2_000;

/**
 * LISTEN holds its connection for as long as it listens: a dedicated client, outside the pool. When that connection
 * is lost, a new one is opened with backoff and LISTEN issued again until it works or `close` is called. The probe
 * issues the LISTEN again (a no-op that keeps `pg_stat_activity` showing the connection as the listener).
 */
export async function listenWithReconnect(
  driver: PgDriver,
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onConnectionLost?: (error: Error) => void,
  onReconnected?: () => void,
): Promise<Listening> {
  let current: InstanceType<PgDriver["Client"]> | undefined;
  let connectedBefore = false;
  let closed = false;
  let delay = firstReconnectDelayMs;
  let timer: NodeJS.Timeout | undefined;
  let attempt: Promise<void> | undefined;
  let probing: NodeJS.Timeout | undefined;
  const listenStatement = `LISTEN ${driver.escapeIdentifier(channel)}`;

  /** Counts the connection lost when the LISTEN sent again is not answered in time. */
  function probe(client: InstanceType<PgDriver["Client"]>, onLost: (error: Error) => void): void {
    let inFlight = false;
    probing = setInterval(() => {
      if (inFlight) return;
      inFlight = true;
      let deadline: NodeJS.Timeout | undefined;
      const silent = new Promise<never>((_, reject) => {
        deadline = setTimeout(
          () => reject(new Error(`LISTEN connection silent for ${listenProbeTimeoutMs} ms`)),
          listenProbeTimeoutMs,
        );
      });
      Promise.race([client.query(listenStatement), silent])
        .catch(onLost)
        .finally(() => {
          clearTimeout(deadline);
          inFlight = false;
        });
    }, listenProbeIntervalMs);
    probing.unref();
  }

  async function connect(): Promise<void> {
    // Keep-alive notices a peer that vanished silently (failover); the time limit keeps `close` from waiting long.
    const client = new driver.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 10_000 });
    let established = false;
    let failedEarly: Error | undefined;
    const onLost = (error: Error) => {
      // Before LISTEN is established the failure is this attempt's: `connect` rejects with it.
      if (!established) {
        failedEarly ??= error;
        return;
      }
      if (current !== client || closed) return;
      current = undefined;
      clearInterval(probing);
      client.end().catch(() => {});
      onConnectionLost?.(error);
      scheduleReconnect();
    };
    // Stays attached for the client's whole life: a dead client can still report errors, never unhandled.
    client.on("error", onLost);
    client.on("end", () => onLost(new Error("LISTEN connection ended")));
    client.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(listenStatement);
      if (failedEarly) throw failedEarly;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    established = true;
    current = client;
    delay = firstReconnectDelayMs;
    probe(client, onLost);
    if (connectedBefore) onReconnected?.();
    connectedBefore = true;
  }

  function scheduleReconnect() {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      attempt = connect().catch((error: Error) => {
        if (closed) return;
        onConnectionLost?.(error);
        scheduleReconnect();
      });
    }, delay);
    delay = Math.min(delay * 2, maxReconnectDelayMs);
  }

  await connect();
  return {
    healthy: () => current !== undefined,
    async close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(probing);
      timer = undefined;
      await attempt;
      const client = current;
      current = undefined;
      await client?.end();
    },
  };
}
