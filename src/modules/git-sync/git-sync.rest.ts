import type { RestRoute } from "../../rest/route.ts";

const gitInfoFields = /* GraphQL */ `
  fragment GitInfoFields on GitSyncState {
    repoName installationProvider integration url ref updatedAt
    operation { direction state error skipped commit revision: revisionId startedAt updatedAt completedAt }
  }
`;

/** The reference's `repoCacheID` (the official client may send it): every operation fetches what it needs. */
const ignoredGitFields = { repoCacheID: "every operation fetches what it needs" };

export const gitSyncRoutes: RestRoute[] = [
  {
    method: "POST",
    path: "/spaces/{spaceId}/git/import",
    operation: "importGitRepository",
    status: 204,
    document: `mutation importGitRepository($input: ImportGitRepositoryInput!) {
      importGitRepository(input: $input) { space { id } }
    }`,
    ignoredBodyFields: ignoredGitFields,
  },
  {
    method: "POST",
    path: "/spaces/{spaceId}/git/export",
    operation: "exportToGitRepository",
    status: 204,
    document: `mutation exportToGitRepository($input: ExportToGitRepositoryInput!) {
      exportToGitRepository(input: $input) { space { id } }
    }`,
    ignoredBodyFields: ignoredGitFields,
  },
  {
    method: "GET",
    path: "/spaces/{spaceId}/git/info",
    operation: "getSpaceGitInfo",
    status: 200,
    result: "space.gitInfo",
    absent: { path: "space.gitInfo", message: (v) => `No Git repository is set up on space ${v.spaceId}` },
    document: `query getSpaceGitInfo($spaceId: ID!) { space(id: $spaceId) { gitInfo { ...GitInfoFields } } } ${gitInfoFields}`,
  },
  {
    method: "DELETE",
    path: "/spaces/{spaceId}/git/legacy-installation",
    operation: "deleteLegacyGitInstallation",
    status: 204,
    document: `mutation deleteLegacyGitInstallation($spaceId: ID!) { deleteLegacyGitInstallation(input: { spaceId: $spaceId }) { space { id } } }`,
  },
];
