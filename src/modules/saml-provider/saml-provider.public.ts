/** The saml-provider module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { samlPlainRoutes } from "./saml-provider.http.ts";
export { samlProviderRoutes } from "./saml-provider.rest.ts";
