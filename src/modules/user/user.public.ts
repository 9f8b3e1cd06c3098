/** The user module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { UserRef } from "./user.graphql.ts";
export {
  addMember,
  addOrganizationMemberByEmail,
  addUserSchema,
  createApiToken,
  createUser,
  getViewerUser,
  hasUsers,
  listApiTokens,
  listUsers,
  revokeApiToken,
  userByIdLoader,
} from "./user.service.ts";
