import type { GraphQLSchema } from "graphql";

/** The release that removes the deprecated names (CHANGELOG: deprecated names last one release). */
export const deprecatedNamesRemovedIn = "0.3.0";

/**
 * Mutations renamed so that each name says what happens (old name -> new name), with one verb per action and the
 * object's own name (`createTeam`, not `createOrganizationTeam`). The old names stay for one release as deprecated
 * aliases of the new fields: same arguments, resolver and payload. `createApiToken` and `revokeApiToken` were removed
 * early (0.2.x): their names differ from `createAPIToken`/`revokeAPIToken` only in case, and GraphQL Code Generator's
 * `typescript` plugin names both fields' argument types alike (`MutationCreateApiTokenArgs`), so its output did not
 * compile.
 */
export const renamedMutations: Readonly<Record<string, string>> = {
  addMemberToOrganizationTeamById: "addTeamMember",
  addSectionGroupToSite: "createSiteSectionGroup",
  addSectionToSite: "createSiteSection",
  addSpaceToSite: "createSiteSpace",
  createOrUpdateOpenAPISpecBySlug: "createOrUpdateOpenAPISpec",
  createOrganizationTeam: "createTeam",
  deleteMemberFromOrganizationTeamById: "removeTeamMember",
  deleteOpenAPISpecBySlug: "deleteOpenAPISpec",
  deleteOrganizationInviteById: "deleteOrganizationInvite",
  deleteSiteById: "deleteSite",
  deleteSiteSectionById: "deleteSiteSection",
  deleteSiteSectionGroupById: "deleteSiteSectionGroup",
  deleteSiteShareLinkById: "deleteSiteShareLink",
  deleteSiteSpaceById: "deleteSiteSpace",
  deleteSpaceById: "deleteSpace",
  removeMemberFromOrganizationById: "removeOrganizationMember",
  removeTeamFromOrganizationById: "deleteTeam",
  updateChangeRequest: "updateChangeRequestFromSpace",
  updateChangeRequestById: "updateChangeRequestDetails",
  updateMemberInOrganizationById: "updateOrganizationMember",
  updateMembersInOrganizationTeam: "updateTeamMembers",
  updateOpenAPISpecBySlug: "updateOpenAPISpec",
  updateOrganizationById: "updateOrganization",
  updateOrganizationInviteById: "updateOrganizationInvite",
  updateSiteById: "updateSite",
  updateSiteSectionById: "updateSiteSection",
  updateSiteSectionGroupById: "updateSiteSectionGroup",
  updateSiteShareLinkById: "updateSiteShareLink",
  updateSiteSpaceById: "updateSiteSpace",
  updateSpaceById: "updateSpace",
  updateTeamInOrganizationById: "updateTeam",
};

/**
 * Adds each old name to the built schema as a deprecated copy of its new field. In place, like the partial-success
 * rule: the schema is built once, at start-up, and nothing has read its fields yet.
 */
export function addDeprecatedMutationAliases(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getMutationType()?.getFields() ?? {};
  for (const [oldName, newName] of Object.entries(renamedMutations)) {
    const field = fields[newName];
    if (!field) throw new Error(`renamedMutations: no mutation ${newName}`);
    fields[oldName] = {
      ...field,
      name: oldName,
      description: `Former name of \`${newName}\`, kept for one release. ${field.description ?? ""}`.trim(),
      deprecationReason: `Use ${newName}. Removed in ${deprecatedNamesRemovedIn}.`,
    };
  }
  return schema;
}
