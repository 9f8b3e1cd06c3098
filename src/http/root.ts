import { Response } from "@whatwg-node/fetch";
import Negotiator from "negotiator";

/** What `/` lists for API clients: where everything is, as absolute URLs under the public URL. */
function serviceLinks(publicUrl: string) {
  return {
    graphql: `${publicUrl}/graphql`,
    graphiql: `${publicUrl}/graphql`,
    rest: `${publicUrl}/v1`,
    openapi: `${publicUrl}/v1/openapi.json`,
    health: { live: `${publicUrl}/livez`, ready: `${publicUrl}/readyz` },
    metrics: `${publicUrl}/metrics`,
  };
}

/**
 * `/`: a browser (it prefers HTML) is sent to GraphiQL; any other client gets the links of `serviceLinks` as JSON.
 * The body is the same on every request: encoded once.
 */
export function createRootRoute(publicUrl: string): (request: Request) => Response {
  const links = Buffer.from(JSON.stringify({ links: serviceLinks(publicUrl) }));
  return (request) => {
    const accept = request.headers.get("accept") ?? "*/*";
    const wanted = new Negotiator({ headers: { accept } }).mediaType(["application/json", "text/html"]);
    if (wanted === "text/html") {
      return new Response(null, { status: 302, headers: { location: "/graphql", vary: "Accept" } });
    }
    return new Response(links, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-length": String(links.length),
        vary: "Accept",
      },
    });
  };
}
