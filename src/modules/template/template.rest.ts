import type { RestRoute } from "../../rest/route.ts";

export const templateRoutes: RestRoute[] = [
  {
    method: "POST",
    path: "/spaces/{spaceId}/content/template",
    operation: "applyTemplateToSpace",
    status: 204,
    document: `mutation applyTemplateToSpace($spaceId: ID!, $input: ApplyTemplateInput!) {
      applyTemplateToSpace(spaceId: $spaceId, input: $input) { space { id } }
    }`,
  },
];
