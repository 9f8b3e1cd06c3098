import { z } from "zod";
import type { Document } from "../../lib/markdown/document.ts";
import { parseInput } from "../../lib/validation.ts";
import type { RequestContext } from "../../request/context.ts";
import { renderOperationsMarkdown, spaceSpecDocumentLoader } from "../openapi-spec/openapi-spec.public.ts";
import {
  type LocatedPage,
  locatedPageLoader,
  type PageKey,
  type PageNode,
  type PageRead,
  pageMarkdownLoader,
  pageReadOf,
  type RevisionRead,
  revisionByIdLoader,
  subpagesLoader,
  type TreeNode,
} from "./content.loaders.ts";
import type { ComputedPage } from "./content-state.ts";
import { evaluateExpressions } from "./expressions.ts";

/**
 * Reading pages one at a time: by id with their path, their subpages, parent and body each read when asked for,
 * so a page of a space of thousands costs what it answers.
 */

/**
 * A page of a revision read by id with its path, not through the revision's tree: its subpages and parent are read
 * when asked for (`subpages`, `parentPage`).
 */
export function revisionPage(ctx: RequestContext, revision: RevisionRead, pageId: string): Promise<PageNode | null> {
  return pageIn(ctx, pageReadOf(revision), pageId);
}

async function pageIn(ctx: RequestContext, read: PageRead, pageId: string): Promise<PageNode | null> {
  const located = await locatedPageLoader(ctx).load({ revisionId: read.revisionId, spaceId: read.spaceId, pageId });
  return located && { ...located.node, ...read };
}

/** Pages by id with their path and ancestors, without reading their revisions' trees; null for a missing page. */
export async function locatedPages(ctx: RequestContext, keys: readonly PageKey[]): Promise<(LocatedPage | null)[]> {
  const loaded = await locatedPageLoader(ctx).loadMany(keys);
  return loaded.map((page) => {
    if (page instanceof Error) throw page;
    return page;
  });
}

/** A page's parent page, read with the same options as the page; null at the root. */
export async function parentPage(ctx: RequestContext, node: PageNode): Promise<PageNode | null> {
  if (node.parentNode !== undefined) return node.parentNode;
  if (!node.parentId) return null;
  const { revisionId, spaceId, renderComputed, showGitMetadata } = node;
  return pageIn(ctx, { revisionId, spaceId, renderComputed, showGitMetadata }, node.parentId);
}

/** A page's direct subpages in order, each with its own: from its tree, or read under the page alone. */
export function subpages(ctx: RequestContext, node: PageNode): Promise<TreeNode[]> | TreeNode[] {
  return node.pages ?? subpagesLoader(ctx).load(node);
}

/** Every page under a page, flat in tree order. */
export async function descendantPages(ctx: RequestContext, node: PageNode): Promise<PageNode[]> {
  const out: PageNode[] = [];
  const visit = (pages: readonly TreeNode[]) => {
    for (const page of pages) {
      out.push(page);
      visit(page.pages);
    }
  };
  visit(await subpages(ctx, node));
  return out;
}

/** A stored page's markdown: read with the page when it was read alone, else for the pages whose body is asked for. */
export function pageMarkdown(ctx: RequestContext, node: PageNode): Promise<string> | string {
  return node.page.markdown ?? pageMarkdownLoader(ctx).load(node.page.versionId);
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
    : await pageMarkdown(ctx, node);
  if (mode !== "false") {
    const revision = await revisionByIdLoader(ctx).load(node.revisionId);
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
  const document = await spaceSpecDocumentLoader(ctx).load({ spaceId: node.spaceId, slug });
  if (!document) return `_The OpenAPI specification ${slug} is not available or not processed yet._`;
  return renderOperationsMarkdown(document, computed.props.page);
}
