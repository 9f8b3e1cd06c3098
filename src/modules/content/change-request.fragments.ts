/** REST selections of a change request, shared by its routes and the content routes (merge revisions embed one). */
export const userFields = "object: __typename id displayName email photoURL urls { location }";

export const changeRequestFields = /* GraphQL */ `
  fragment ChangeRequestFields on ChangeRequest {
    object: __typename id number status subject description createdAt updatedAt space: spaceId revision: revisionId revisionInitial
    revisionMergedAncestor revisionMerged comments outdated urls { app location }
    createdBy { ${userFields} }
  }
`;
