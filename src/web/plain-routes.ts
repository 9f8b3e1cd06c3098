import { domainErrorFrom } from "../lib/errors.ts";
import type { RequestContext } from "../request/context.ts";
import { restError } from "./errors.ts";

/**
 * An endpoint outside the GraphQL schema: what browsers and other services call directly (a SAML login's redirects
 * and form posts, a spec's source served as a file). Domain errors answer the public error body.
 */
export interface PlainRoute {
  method: "GET" | "POST";
  /** Matched against the whole path; its groups are the handler's parameters. */
  pattern: RegExp;
  handle(request: Request, parameters: string[], ctx: RequestContext): Promise<Response>;
}

/** The route for the request, or undefined when none matches its path. */
export function findPlainRoute(routes: readonly PlainRoute[], request: Request, path: string) {
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (match && route.method === request.method) return { route, parameters: match.slice(1) };
  }
  return undefined;
}

export async function runPlainRoute(
  route: PlainRoute,
  request: Request,
  parameters: string[],
  ctx: RequestContext,
): Promise<Response> {
  try {
    return await route.handle(request, parameters.map(decodeURIComponent), ctx);
  } catch (error) {
    const domain = domainErrorFrom(error);
    if (domain) return restError(domain.code, domain.message);
    if (error instanceof URIError) return restError("BAD_USER_INPUT", "Malformed path");
    throw error;
  }
}
