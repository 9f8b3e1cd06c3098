import type { ModuleJobs } from "../jobs/queue.ts";
import type { RestRoute } from "../rest/route.ts";
import type { PlainRoute } from "../web/plain-routes.ts";

/**
 * What one module adds to the service, in its folder as `<module>.module.ts`. The app's module list
 * (src/app/modules.ts) is the one place that names the modules: the schema, the `/v1` routes, the plain routes, the
 * jobs and the modules' start-up calls are all gathered from it. Importing a manifest registers the module's GraphQL
 * types, queries and mutations (its `*.graphql.ts` files, imported by the manifest), as Pothos' builder is filled.
 */
export interface ModuleManifest {
  /** The module's folder name. */
  name: string;
  /** Its `/v1` routes, in the order the REST reference lists them. */
  restRoutes?: readonly RestRoute[];
  /** Endpoints outside GraphQL and REST that browsers and other services call (file downloads, SAML). */
  plainRoutes?: readonly PlainRoute[];
  /** The job types it adds and its work on a schedule, registered with the engine by the app. */
  jobs?: ModuleJobs;
  /**
   * Calls into lower modules made once at start, where a lower module needs a piece of this one (a hook, never an
   * import upward: docs/architecture.md "When a lower module needs a higher one").
   */
  wire?(): void;
}
