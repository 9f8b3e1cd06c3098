import "./content.graphql.ts";
import "./content-write.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { registerFirstRevisionWriter } from "../space/space.public.ts";
import { contentPlainRoutes } from "./content.http.ts";
import { contentRoutes } from "./content.rest.ts";
import { contentJobs } from "./content.service.ts";
import { writeFirstRevision } from "./revision.service.ts";

/**
 * Revisions, pages and files of a space; PDF exports; the content's plain routes (file downloads). No policy file:
 * content is read and edited under the space's rules (space.policy.ts: read, `canEditSpaceContent`).
 */
export const contentModule: ModuleManifest = {
  name: "content",
  restRoutes: contentRoutes,
  plainRoutes: contentPlainRoutes,
  jobs: contentJobs,
  // A space is created with its first revision, which only content can write.
  wire: () => registerFirstRevisionWriter(writeFirstRevision),
};
