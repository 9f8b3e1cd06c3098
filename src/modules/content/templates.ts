import { z } from "zod";
import type { Space } from "../../db/generated/client.ts";
import { InvalidInputError } from "../../lib/errors.ts";
import { parseInput } from "../../lib/validation.ts";
import { randomBase62 } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { getReferencedSpec } from "../openapi-spec/openapi-spec.public.ts";
import { type ContentEditor, changesEditor, fileDownloadUrl } from "./content.service.ts";
import type { ComputedPage } from "./content-state.ts";

/** The public API's `{ id, params: { contentRefs } }` of a template (POST content/template, change request create). */
export const templateParamsSchema = z.strictObject({
  contentRefs: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "The content the template needs, by name: openapi-reference takes `spec` ({ kind: openapi, spec: <spec " +
        "slug> }), file-page takes `file` ({ kind: file, file: <file id> })",
    ),
});

export const templateSchema = z.strictObject({
  id: z.string().min(1).max(100).describe("The template: openapi-reference or file-page"),
  params: templateParamsSchema.optional().describe("What the template needs"),
});

type TemplateInput = z.infer<typeof templateSchema>;

const openAPIRefSchema = z.strictObject({ kind: z.literal("openapi"), spec: z.string().min(1).max(100) });
const fileRefSchema = z.strictObject({
  kind: z.literal("file"),
  file: z.string().min(1).max(100),
  space: z.string().min(1).max(100).optional(),
});

/** `{ contentRefs: { <name>: <reference> } }` with exactly the one reference a template needs. */
const refsSchema = <Name extends string, Ref extends z.ZodType>(name: Name, ref: Ref) =>
  z.object({ contentRefs: z.strictObject({ [name]: ref } as Record<Name, Ref>) });

/** The catalogue: each template checks its content references and gives the editor that adds its pages. */
const templates: Record<string, (ctx: RequestContext, space: Space, contentRefs: unknown) => Promise<ContentEditor>> = {
  /** An API reference page computed from an OpenAPI spec of the space's organization. */
  "openapi-reference": async (ctx, space, contentRefs) => {
    const ref = parseInput(refsSchema("spec", openAPIRefSchema), { contentRefs }).contentRefs.spec;
    const spec = await getReferencedSpec(ctx, space.organizationId, ref.spec);
    const computed: ComputedPage = {
      type: "builtin:openapi",
      dependencies: { spec: { ref: { kind: "openapi", spec: spec.slug } } },
      props: { doc: "operations", page: "*" },
    };
    return (base, head, now) => {
      const applied = changesEditor({ changes: [{ type: "insert", page: { title: "API reference" } }] })(
        base,
        head,
        now,
      );
      for (const { id } of applied.inserted) {
        const page = applied.state.pages.get(id);
        if (page) applied.state.pages.set(id, { ...page, computed, computedSeed: randomBase62(16) });
      }
      return applied;
    };
  },
  /** A page that embeds a file of the target content (an image shows, other files are a link to download). */
  "file-page": async (ctx, space, contentRefs) => {
    const ref = parseInput(refsSchema("file", fileRefSchema), { contentRefs }).contentRefs.file;
    if (ref.space !== undefined && ref.space !== space.id) {
      throw new InvalidInputError("contentRefs.file: only files of this space can be placed");
    }
    return (base, head, now) => {
      const file = base.files.get(ref.file);
      if (!file) throw new InvalidInputError(`contentRefs.file: file ${ref.file} is not in the content`);
      const url = fileDownloadUrl(ctx, { ...file, spaceId: head.spaceId, revisionId: head.revisionId });
      const label = file.name.replace(/[[\]\\]/g, "\\$&");
      const markdown = file.contentType.startsWith("image/") ? `![${label}](<${url}>)` : `[${label}](<${url}>)`;
      return changesEditor({ changes: [{ type: "insert", page: { title: file.name, markdown } }] })(base, head, now);
    };
  },
};

/** The ids of the templates this service offers. */
const templateIds = Object.keys(templates);

/**
 * The editor that applies a template to a space's content (or a change request's): the template's references are
 * checked here, before any write (400 for a bad one, 404 for an OpenAPI spec the organization does not have).
 */
export async function templateEditor(ctx: RequestContext, space: Space, input: TemplateInput): Promise<ContentEditor> {
  const template = templates[input.id];
  if (!template || !Object.hasOwn(templates, input.id)) {
    throw new InvalidInputError(`Unknown template ${input.id}; available: ${templateIds.join(", ")}`);
  }
  return template(ctx, space, input.params?.contentRefs ?? {});
}
