import { builder } from "../../graphql/builder.ts";
import { applyTemplateToSpace } from "./template.service.ts";

const SpaceTemplateParamsInput = builder.inputType("SpaceTemplateParamsInput", {
  fields: (t) => ({
    contentRefs: t.field({
      type: "JSON",
      description: "Content references by name: `spec` {kind: openapi, spec} or `file` {kind: file, file}.",
    }),
  }),
});

const ApplyTemplateInput = builder.inputType("ApplyTemplateInput", {
  fields: (t) => ({
    id: t.string({ required: true, description: "openapi-reference or file-page." }),
    params: t.field({ type: SpaceTemplateParamsInput }),
    changeRequestId: t.string({ description: "Apply to this change request's content instead of the space's." }),
  }),
});

builder.mutationFields((t) => ({
  applyTemplateToSpace: t.boolean({
    description: "Adds a template's pages to the space's content (or a change request's) as one new revision.",
    args: { spaceId: t.arg.id({ required: true }), input: t.arg({ type: ApplyTemplateInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      await applyTemplateToSpace(ctx, String(args.spaceId), args.input);
      return true;
    },
  }),
}));
