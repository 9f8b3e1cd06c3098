import { once } from "node:events";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../src/lib/deadline.ts";

const server = createServer((socket) => socket.on("error", () => {}));
const accepted: Socket[] = [];
server.on("connection", (socket) => accepted.push(socket));

beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
});
afterAll(async () => {
  for (const socket of accepted) socket.destroy();
  server.close();
  await once(server, "close");
});

/** Holds the event loop (as a loaded host or a run of in-process database work does) for `ms`. */
function holdTheLoop(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // the process is busy
  }
}

describe("deadline", () => {
  it("lets I/O that completed in time win over a deadline the held event loop reached late", async () => {
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
    let expired = false;
    let connectingWhenPlainTimerRan: boolean | undefined;
    const stopWaiting = deadline(20, () => {
      expired = true;
    });
    socket.once("connect", stopWaiting);
    // A plain timer of the same length, for comparison: it runs before the connection's event is handled.
    setTimeout(() => {
      connectingWhenPlainTimerRan = socket.connecting;
    }, 20);
    // The loopback connection completes while the loop is held past both timers.
    setImmediate(() => holdTheLoop(100));
    await once(socket, "connect");
    await new Promise((resolve) => setImmediate(resolve));
    socket.destroy();
    expect(connectingWhenPlainTimerRan).toBe(true);
    expect(expired).toBe(false);
  });

  it("expires when nothing cancels it, and not once cancelled", async () => {
    const expired: string[] = [];
    deadline(1, () => expired.push("kept"));
    const cancel = deadline(1, () => expired.push("cancelled"));
    cancel();
    await new Promise((resolve) => deadline(5, () => resolve(undefined)));
    expect(expired).toEqual(["kept"]);
  });
});
