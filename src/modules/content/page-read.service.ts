import { z } from "zod";
import type { Document } from "../../lib/markdown/document.ts";
import { parseInput } from "../../lib/validation.ts";
import type { RequestContext } from "../../request/context.ts";
import { renderOperationsMarkdown, specDocumentFor } from "../openapi-spec/openapi-spec.public.ts";
import { parentSpace } from "../space/space.public.ts";
import { contentReads, type LocatedPage, type PageKey, type PageNode, type RevisionRead } from "./content-reads.ts";
import type { ComputedPage } from "./content-state.ts";
import { evaluateExpressions } from "./expressions.ts";

/** A page of a revision read by id with its path (`contentReads(ctx).page`), for other modules. */
export function revisionPage(ctx: RequestContext, revision: RevisionRead, pageId: string): Promise<PageNode | null> {
  return contentReads(ctx).page(revision, pageId);
}

/** Pages by id with their path and ancestors (`contentReads(ctx).locatedPages`), for other modules. */
export function locatedPages(ctx: RequestContext, keys: readonly PageKey[]): Promise<(LocatedPage | null)[]> {
  return contentReads(ctx).locatedPages(keys);
}

/** A stored page's markdown (`contentReads(ctx).markdownOf`), for other modules. */
export function pageMarkdown(ctx: RequestContext, node: PageNode): Promise<string> | string {
  return contentReads(ctx).markdownOf(node);
}

const evaluatedSchema = z.enum(["true", "false", "deterministic-only"], {
  error: "evaluated must be true, false or deterministic-only",
});

export type PageFormat = "markdown" | "document";

/**
 * A page's body in one format. `evaluated` (`true`, `false`, `deterministic-only`) replaces variable expressions
 * with their values; `deterministic-only` leaves the ones whose inputs are not deterministic as they are.
 */
export async function pageBody(
  ctx: RequestContext,
  node: PageNode,
  format: PageFormat,
  evaluated: string | null | undefined,
): Promise<string | Document | null> {
  if (node.page.type !== "document") return null;
  const mode = parseInput(evaluatedSchema, evaluated ?? "false");
  let markdown = node.page.computed
    ? await computedMarkdown(ctx, node, node.page.computed)
    : await contentReads(ctx).markdownOf(node);
  if (mode !== "false") {
    const revision = await contentReads(ctx).revision.load(node.revisionId);
    const scope = {
      space: { vars: (revision?.variables ?? {}) as Record<string, unknown> },
      page: { vars: node.page.variables },
    };
    const evaluate = mode === "true" ? true : "deterministic-only";
    markdown = evaluateExpressions(markdown, await ctx.budget.convert("expressions", markdown), scope, evaluate);
  }
  return format === "markdown" ? markdown : ctx.budget.convert("document", markdown);
}

/**
 * The generated body of a computed page from the latest processed version of the OpenAPI spec it names (specs
 * of the space's organization); empty when the read asked for `computed=false`.
 */
async function computedMarkdown(ctx: RequestContext, node: PageNode, computed: ComputedPage): Promise<string> {
  if (!node.renderComputed) return "";
  const slug = computed.dependencies.spec.ref.spec;
  // The page was read under its space's check: the space is readable as the page's parent.
  const document = await specDocumentFor(ctx, await parentSpace(ctx, node.spaceId), slug);
  if (!document) return `_The OpenAPI specification ${slug} is not available or not processed yet._`;
  return renderOperationsMarkdown(document, computed.props.page);
}
