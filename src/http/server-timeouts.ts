import type { ServerOptions } from "node:http";

/**
 * How long Node's HTTP server waits for what a client sends: headers within 10 s and the whole request within 30 s
 * (Node's defaults, 60 s and 300 s, let connections that send one byte at a time hold sockets for minutes; the guard
 * also refuses a body idle for 10 s). Idle keep-alive connections stay open 65 s, longer than the clients' own idle
 * timeouts and than a stall of the event loop: when Node closes one a client has just sent a request on, that
 * request is lost to a connection reset.
 */
export const serverTimeouts: ServerOptions = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 65_000,
};
