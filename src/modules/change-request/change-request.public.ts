/** The change-request module's door: all that other modules and the app may use of it (docs/architecture.md). */

export { ChangeRequestRef } from "./change-request.graphql.ts";
export { editChangeRequestContent, getChangeRequest } from "./change-request.service.ts";
export { CommentPostedRef } from "./change-request-events.graphql.ts";
