import { GraphQLClient } from "graphql-request";
import { getSdk, type Sdk } from "./generated.ts";

export type * from "./generated.ts";

export interface GatewayClientOptions {
  /** An API token (`dmt_...`), sent as `Authorization: Bearer`. */
  token?: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
}

/** A typed client of the gateway's GraphQL API: one method per operation of `operations.graphql`. */
export function createGatewayClient(baseUrl: string, options: GatewayClientOptions = {}): Sdk {
  const client = new GraphQLClient(`${baseUrl.replace(/\/$/, "")}/graphql`, {
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return getSdk(client);
}
