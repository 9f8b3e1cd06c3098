import type { RestRoute } from "../../rest/route.ts";

export const templateRoutes: RestRoute[] = [
  {
    method: "POST",
    path: "/spaces/{spaceId}/content/template",
    operation: "applyTemplateToSpace",
    status: 204,
    document: `mutation applyTemplateToSpace($input: ApplyTemplateToSpaceInput!) {
      applyTemplateToSpace(input: $input) { space { id } }
    }`,
  },
];
