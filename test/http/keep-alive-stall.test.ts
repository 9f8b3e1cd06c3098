import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { serverTimeouts } from "../../src/http/server-timeouts.ts";

// The server's own options (src/app/main.ts creates its server with them), on a server in this process, whose event
// loop the test then stalls.
const server = createServer(serverTimeouts, (_request, response) => response.end("ok"));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(port: number, agent: import("node:http").Agent): Promise<{ status: number; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const sent = request({ port, host: "127.0.0.1", path: "/", agent }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, socket: sent.socket }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

describe("keep-alive connections across a stall", () => {
  it("keeps an idle connection a client has just sent on through a 6 s stall (Node's 5 s default closed it)", async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const { Agent } = await import("node:http");
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await get(port, agent);
    // The event loop stalls longer than Node's default keep-alive timeout; the client's next request is written
    // when the stall ends, on the same connection.
    const until = Date.now() + 6000;
    while (Date.now() < until) {
      // A stall: nothing else runs.
    }
    const second = await get(port, agent);
    agent.destroy();
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.socket).toBe(first.socket);
  });
});
