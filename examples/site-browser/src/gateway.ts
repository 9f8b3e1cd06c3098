import { createGatewayClient, type Sdk } from "@docs-management-gateway/sdk";

/** What the page has sent: the SDK sends queries by id as GET requests and mutations as POST. */
export interface Traffic {
  queries: number;
  mutations: number;
}

/** The SDK's typed client, counting each request it sends into `traffic` (then calling `onSent`). */
export function connectGateway(gatewayUrl: string, token: string, traffic: Traffic, onSent: () => void): Sdk {
  return createGatewayClient(gatewayUrl, {
    token,
    fetch: (input, init) => {
      if (init?.method === "GET") traffic.queries += 1;
      else traffic.mutations += 1;
      onSent();
      return fetch(input, init);
    },
  });
}
