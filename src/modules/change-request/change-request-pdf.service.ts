import type { ChangeRequest } from "../../db/generated/client.ts";
import type { RequestContext } from "../../request/context.ts";
import { createPdfExport, revisionOf } from "../content/content.public.ts";
import { getSpace } from "../space/space.public.ts";

/** A one-hour PDF link of the change request's content, or of one page (`only`: without its subpages). */
export async function changeRequestPdf(
  ctx: RequestContext,
  changeRequest: ChangeRequest,
  options: { page?: string | null; only?: boolean | null },
) {
  const space = await getSpace(ctx, changeRequest.spaceId);
  const revision = await revisionOf(ctx, changeRequest.revisionId);
  const title = changeRequest.subject || `Change request #${changeRequest.number}`;
  return createPdfExport(ctx, space, revision, `${space.title}: ${title}`, {
    pageId: options.page,
    only: options.only,
  });
}
