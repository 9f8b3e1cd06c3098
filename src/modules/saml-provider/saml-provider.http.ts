import { Response } from "@whatwg-node/fetch";
import { InvalidInputError } from "../../lib/errors.ts";
import type { PlainRoute } from "../../web/plain-routes.ts";
import { completeSamlLogin, samlLoginRedirect } from "./saml-login.service.ts";

/** The browser's side of a SAML login (`service.startURL` and `service.acsURL` of a provider). */
export const samlPlainRoutes: PlainRoute[] = [
  {
    method: "GET",
    pattern: /^\/sso\/saml\/([^/]+)\/start$/,
    async handle(_request, [providerId = ""], ctx) {
      const location = await samlLoginRedirect(ctx, providerId);
      return new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
    },
  },
  {
    method: "POST",
    pattern: /^\/sso\/saml\/([^/]+)\/acs$/,
    async handle(request, [providerId = ""], ctx) {
      let form: FormData;
      try {
        form = await request.formData();
      } catch {
        throw new InvalidInputError("Expected an application/x-www-form-urlencoded body with SAMLResponse");
      }
      const samlResponse = form.get("SAMLResponse");
      const session = await completeSamlLogin(
        ctx,
        providerId,
        typeof samlResponse === "string" ? samlResponse : undefined,
      );
      // The token is the session: the browser (or the page that opened the login) keeps it as a Bearer token.
      return Response.json(
        {
          object: "sso-session",
          token: session.token,
          expiresAt: session.expiresAt.toISOString(),
          user: session.userId,
          organization: session.organizationId,
        },
        { status: 200, headers: { "cache-control": "no-store" } },
      );
    },
  },
];
