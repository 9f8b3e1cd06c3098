import { z } from "zod";
import { parseInput } from "../../lib/validation.ts";
import type { RequestContext } from "../../request/context.ts";
import { editChangeRequestContent } from "../change-request/change-request.public.ts";
import { editSpaceContent, templateEditor, templateSchema } from "../content/content.public.ts";
import { requireSpaceEditable } from "../space/space.public.ts";

export const applyTemplateSchema = templateSchema.extend({
  changeRequestId: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe("Apply to this change request's content (id or number) instead of the space's"),
});

/**
 * Applies a template to the space's primary content or, with `changeRequestId`, to that change request's: one new
 * revision, written only if the template and every reference it names are valid.
 */
export async function applyTemplateToSpace(ctx: RequestContext, spaceId: string, input: unknown): Promise<void> {
  const space = await requireSpaceEditable(ctx, spaceId);
  const { changeRequestId, ...template } = parseInput(applyTemplateSchema, input);
  const editor = await templateEditor(ctx, space, template);
  if (changeRequestId) await editChangeRequestContent(ctx, spaceId, changeRequestId, editor);
  else await editSpaceContent(ctx, spaceId, editor);
}
