import "./saml-provider.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { samlPlainRoutes } from "./saml-provider.http.ts";
import { samlProviderRoutes } from "./saml-provider.rest.ts";

/** SAML single sign-on providers and the login endpoints. */
export const samlProviderModule: ModuleManifest = {
  name: "saml-provider",
  restRoutes: samlProviderRoutes,
  plainRoutes: samlPlainRoutes,
};
