import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { templateParamsSchema } from "../content/content.public.ts";
import { getSpace, SpaceRef } from "../space/space.public.ts";
import { applyTemplateSchema, applyTemplateToSpace } from "./template.service.ts";

const SpaceTemplateParamsInput = builder.inputType("SpaceTemplateParamsInput", {
  description: "What a template needs to add its pages.",
  fields: (t) => ({
    contentRefs: t.field({ type: "JSON", description: describeInputField(templateParamsSchema, "contentRefs") }),
  }),
});

const ApplyTemplateInput = builder.inputType("ApplyTemplateInput", {
  description: "A template to apply, with what it needs.",
  fields: (t) => ({
    id: t.id({ required: true, description: describeInputField(applyTemplateSchema, "id") }),
    params: t.field({ type: SpaceTemplateParamsInput, description: describeInputField(applyTemplateSchema, "params") }),
    changeRequestId: t.id({ description: describeInputField(applyTemplateSchema, "changeRequestId") }),
  }),
});

const ApplyTemplateToSpacePayloadRef = payloadType<{ space: typeof SpaceRef.$inferType }>("applyTemplateToSpace", {
  space: { type: SpaceRef, description: "The space whose content (or change request) took the template." },
});

builder.mutationFields((t) => ({
  applyTemplateToSpace: t.field({
    type: ApplyTemplateToSpacePayloadRef,
    ...describeMutation(
      "Adds a template's pages to the space's content (or a change request's) as one new revision, written only " +
        "when the template and what it names are valid (applyTemplateToSpace). Needs the edit role on a space that " +
        "is not locked.",
      {
        NOT_FOUND: "no such space or change request for the caller",
        FORBIDDEN: "below the edit role, or the space is locked",
        BAD_USER_INPUT: "an unknown template or invalid parameters",
      },
    ),
    args: {
      spaceId: t.arg.id({ required: true, description: "The space." }),
      input: t.arg({ type: ApplyTemplateInput, required: true, description: "The template and its parameters." }),
    },
    resolve: async (_root, args, ctx) => {
      await applyTemplateToSpace(ctx, args.spaceId, args.input);
      return { space: await getSpace(ctx, args.spaceId) };
    },
  }),
}));
