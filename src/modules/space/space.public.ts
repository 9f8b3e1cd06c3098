/** The space module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { registerFirstRevisionWriter } from "./first-revision.ts";
export {
  getSpace,
  loadVisibleSpaces,
  requireSpaceEditable,
  requireSpaceRole,
  spaceRole,
  visibleSpaceLoader,
  visibleSpaceSummaryLoader,
  visibleSpacesSql,
  visibleSpacesWhere,
} from "./space.access.ts";
export { SpaceRef, spaceSummaryFields } from "./space.graphql.ts";
export { spaceFields } from "./space.rest.ts";
export { createSpace, insertSpace, spaceLanguages } from "./space.service.ts";
export {
  parentSpace,
  type SpaceSummary,
  spaceByIdLoader,
  spaceGitSync,
  teamSpaceCountLoader,
} from "./space-reads.ts";
export { LanguageEnum } from "./space-values.graphql.ts";
