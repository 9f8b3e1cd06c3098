import { z } from "zod";
import { objectOrganizationId, requireViewer, viewerMembershipLoader } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import { hasRole } from "../../auth/roles.ts";
import type { Job, Prisma, PrismaClient, Translation } from "../../db/generated/client.ts";
import { enqueueJob, type ModuleJobs } from "../../jobs/queue.ts";
import { InvalidInputError, isRefusal, NotFoundError, nullWhereRefused } from "../../lib/errors.ts";
import { documentSchema, parseInput } from "../../lib/validation.ts";
import {
  type FilterRules,
  filterWhere,
  type ListArgs,
  type ListOrder,
  parseFilter,
  sortFor,
  timeRangeRules,
  timeRangeSchemas,
} from "../../paging/list-order.ts";
import { type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import type { Config } from "../../platform/config.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { JobWorkRefusedError, mapTextsForJob } from "../../workers/job-work.ts";
import { WorkOutOfMemoryError, WorkTimeoutError } from "../../workers/pool.ts";
import {
  type ContentState,
  markdownLinkUrls,
  type PageState,
  readContentState,
  writeFirstRevision,
  writeRevision,
} from "../content/content.public.ts";
import { getSpace, insertSpace, spaceLanguages } from "../space/space.public.ts";
import { translationProvider } from "./providers.ts";
import { applyTranslations, proseSegments, wordCount } from "./translate-markdown.ts";
import { canManageTranslations, canReadTranslations } from "./translation.policy.ts";

const translationRunJobType = "translation-run";

const emptyDocument = { object: "document", data: {}, nodes: [] };
const languageSchema = z.enum(spaceLanguages);

export async function getTranslation(ctx: RequestContext, organizationId: string, translationId: string) {
  await authorizeInOrganization(ctx, organizationId, canReadTranslations);
  const translation = await ctx.prisma.translation.findFirst({ where: { id: translationId, organizationId } });
  if (!translation) throw new NotFoundError(`Translation ${translationId} not found`);
  return translation;
}

/** An organization's translations, oldest first. */
export const translationOrder: SortKey<Translation>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

/** The sorts of `translations(orderBy:)`. */
export const translationListOrder: ListOrder<Translation> = {
  fields: { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt" },
  tiebreak: "id",
};

export const translationFilterSchema = z.strictObject({
  status: z.enum(["pending", "running", "completed", "failed"]).nullish().describe("Only translations in this state"),
  language: languageSchema.nullish().describe("Only translations into this language"),
  ...timeRangeSchemas("translations"),
});

const translationFilterRules: FilterRules<Translation, z.infer<typeof translationFilterSchema>> = {
  status: { equals: "status" },
  language: { equals: "language" },
  ...timeRangeRules,
};

export async function listTranslations(
  ctx: RequestContext,
  organizationId: string,
  page: PageArgs,
  list: ListArgs = {},
) {
  await authorizeInOrganization(ctx, organizationId, canReadTranslations);
  const filter = parseFilter(translationFilterSchema, list.filter);
  return paginate<Translation>(page, {
    model: ctx.prisma.translation,
    where: { organizationId, AND: filterWhere(translationFilterRules, filter) },
    sort: sortFor(translationListOrder, list.orderBy, translationOrder),
  });
}

export const translationSourceSchema = z.strictObject({
  space: z.string().min(1).describe("Id of the space to translate, in the organization"),
  language: languageSchema.describe("The language the space is written in"),
});

export const createTranslationSchema = z.strictObject({
  source: translationSourceSchema.describe("The space to translate and its language"),
  language: languageSchema.describe("The language to translate into"),
  instructions: documentSchema.optional().describe("Guidance for the translator, as a rich-text document"),
});

/** A translation of a space of the organization into another language (organization `create` role). */
export async function createTranslation(ctx: RequestContext, organizationId: string, input: unknown) {
  await authorizeInOrganization(ctx, organizationId, canManageTranslations);
  const data = parseInput(createTranslationSchema, input);
  if (data.language === data.source.language) throw new InvalidInputError("language must differ from source.language");
  const space = await getSpace(ctx, data.source.space).catch((error: unknown) => {
    if (isRefusal(error)) return null;
    throw error;
  });
  if (!space || space.organizationId !== organizationId) {
    throw new InvalidInputError(`source.space: ${data.source.space} is not a space of this organization`);
  }
  const now = ctx.clock.now();
  return ctx.prisma.translation.create({
    data: {
      id: newId("Translation"),
      organizationId,
      sourceSpaceId: space.id,
      sourceLanguage: data.source.language,
      language: data.language,
      instructions: (data.instructions ?? emptyDocument) as Prisma.InputJsonValue,
      createdById: requireViewer(ctx).userId,
      createdAt: now,
      updatedAt: now,
    },
  });
}

/** The organization a translation mutation acts in: the one given, or else the translation's own. */
function translationOrganizationId(ctx: RequestContext, organizationId: string | null | undefined, id: string) {
  const own = async () =>
    (await ctx.prisma.translation.findUnique({ where: { id }, select: { organizationId: true } }))?.organizationId;
  return objectOrganizationId(ctx, organizationId, own, `Translation ${id} not found`);
}

export const updateTranslationSchema = z.strictObject({
  instructions: documentSchema.describe("Guidance for the translator, as a rich-text document (replaces the old)"),
});

export async function updateTranslation(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  id: string,
  input: unknown,
) {
  const organizationId = await translationOrganizationId(ctx, givenOrganizationId, id);
  await authorizeInOrganization(ctx, organizationId, canManageTranslations);
  await getTranslation(ctx, organizationId, id);
  const data = parseInput(updateTranslationSchema, input);
  return ctx.prisma.translation.update({
    where: { id },
    data: { instructions: data.instructions as Prisma.InputJsonValue, updatedAt: ctx.clock.now() },
  });
}

/** Deletes the translation settings; the result space stays (it is content people may have edited). */
export async function deleteTranslation(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  id: string,
): Promise<void> {
  const organizationId = await translationOrganizationId(ctx, givenOrganizationId, id);
  await authorizeInOrganization(ctx, organizationId, canManageTranslations);
  await ctx.prisma.translation.deleteMany({ where: { id, organizationId } });
}

/**
 * Queues a run (a persisted job): 204 at once, the result visible on the translation when done. Returns the
 * translation, read after the run was queued.
 */
export async function runTranslation(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  id: string,
): Promise<Translation> {
  const organizationId = await translationOrganizationId(ctx, givenOrganizationId, id);
  await getTranslation(ctx, organizationId, id);
  await authorizeInOrganization(ctx, organizationId, canManageTranslations);
  const now = ctx.clock.now();
  await ctx.prisma.$transaction(async (tx) => {
    const queued = await tx.job.count({
      where: {
        type: translationRunJobType,
        status: { in: ["pending", "running"] },
        payload: { equals: { translationId: id } },
      },
    });
    await tx.translation.update({ where: { id }, data: { status: "pending", failureReason: null, updatedAt: now } });
    if (queued === 0) await enqueueJob(tx, translationRunJobType, { translationId: id }, now, organizationId);
  });
  return getTranslation(ctx, organizationId, id);
}

export async function translationPermissions(ctx: RequestContext, translation: Translation) {
  const membership = await viewerMembershipLoader(ctx).load(translation.organizationId);
  return { view: hasRole(membership?.role, "read"), edit: hasRole(membership?.role, "create") };
}

/** Plain text of a rich-text document's leaves, for the provider's instructions. */
function documentText(value: unknown): string {
  if (!value || typeof value !== "object") return "";
  const node = value as { text?: unknown; leaves?: unknown[]; nodes?: unknown[] };
  if (typeof node.text === "string") return node.text;
  return [...(node.leaves ?? []), ...(node.nodes ?? [])].map(documentText).join(" ").trim();
}

/** Failures of the job's parsing the same content would meet again: recorded, not retried. */
function isLastingWorkFailure(error: unknown): boolean {
  return (
    error instanceof WorkTimeoutError || error instanceof WorkOutOfMemoryError || error instanceof JobWorkRefusedError
  );
}

/** Why the job's parsing on a worker failed, in words the translation's owner can act on. */
function workFailureReason(error: unknown, config: Config): string {
  if (error instanceof WorkTimeoutError) {
    return `Parsing the pages' markdown takes more than the ${config.jobWorkTimeoutMs} ms allowed (JOB_WORK_TIMEOUT_MS)`;
  }
  if (error instanceof WorkOutOfMemoryError) {
    return `Parsing the pages' markdown needs more than the ${config.workerMemoryMb} MiB allowed (WORKER_MEMORY_MB)`;
  }
  return (error as Error).message;
}

/**
 * The job: translates every page of the source space's current content (titles, descriptions and the prose of the
 * markdown; code, URLs and expressions untouched) and writes it as one new revision of the result space, created
 * on the first run. The markdown is parsed on a worker thread under the job's work deadline (its prose before the
 * translation, the translated pages' links after), so neither the event loop nor the write's transaction waits on
 * parsing. The whole write is one transaction, so a crash mid-run leaves nothing half-written and the retried job
 * starts over.
 */
async function processTranslationRun(prisma: PrismaClient, job: Job, now: Date, config: Config, signal: AbortSignal) {
  const { translationId } = job.payload as { translationId: string };
  const translation = await prisma.translation.findUnique({ where: { id: translationId } });
  if (!translation) return;
  const started = performance.now();
  await prisma.translation.update({ where: { id: translationId }, data: { status: "running", updatedAt: now } });
  try {
    const source = await prisma.space.findUnique({ where: { id: translation.sourceSpaceId } });
    if (!source || source.deletedAt) throw new Error("The source space was deleted");
    const state = await readContentState(prisma, source.revisionId);
    const provider = translationProvider(config);
    const request = {
      from: translation.sourceLanguage,
      to: translation.language,
      instructions: documentText(translation.instructions),
      signal,
    };
    const documents = [...state.pages.values()].filter((page) => page.type === "document");
    const sources = documents.map((page) => page.markdown);
    const segmentLists = await mapTextsForJob(config, "prose-segments", sources, signal, proseSegments);
    const segmentsOf = new Map(documents.map((page, index) => [page.id, segmentLists[index] ?? []]));
    const pages = new Map<string, PageState>();
    let words = 0;
    for (const page of state.pages.values()) {
      const segments = segmentsOf.get(page.id) ?? [];
      const texts = [page.title, page.description ?? "", ...segments.map((segment) => segment.text)];
      words += texts.reduce((sum, text) => sum + wordCount(text), 0);
      const [title, description, ...prose] = await provider.translate(texts, request);
      pages.set(page.id, {
        ...page,
        versionId: null,
        title: title || page.title,
        description: page.description === null ? null : (description ?? page.description),
        markdown: applyTranslations(page.markdown, segments, prose),
        updatedAt: now,
      });
    }
    const translatedDocuments = [...pages.values()].filter((page) => page.type === "document");
    const texts = translatedDocuments.map((page) => page.markdown);
    const urls = await mapTextsForJob(config, "page-links", texts, signal, (text) =>
      markdownLinkUrls(text, config.maxConvertedBytes),
    );
    const links = new Map(translatedDocuments.map((page, index) => [page.id, urls[index] ?? []]));
    const translated: ContentState = { pages, files: new Map(state.files), variables: { ...state.variables } };
    const seconds = Math.round((performance.now() - started) / 1000);
    await prisma.$transaction(async (tx) => {
      const createdById = translation.createdById ?? source.createdById ?? "";
      const existing = translation.resultSpaceId
        ? await tx.space.findUnique({ where: { id: translation.resultSpaceId } })
        : null;
      let resultSpaceId: string;
      let resultRevisionId: string;
      if (existing && !existing.deletedAt) {
        resultSpaceId = existing.id;
        resultRevisionId = await writeRevision(tx, {
          spaceId: existing.id,
          parents: [existing.revisionId],
          type: "edits",
          createdById,
          createdAt: now,
          state: translated,
          links,
        });
        await tx.space.update({ where: { id: existing.id }, data: { revisionId: resultRevisionId, updatedAt: now } });
      } else {
        const space = await insertSpace(tx, {
          organizationId: translation.organizationId,
          parentId: source.parentId,
          title: `${source.title.slice(0, 40)} (${translation.language})`,
          emoji: source.emoji,
          language: translation.language,
          editMode: "live",
          createdById,
          now,
          writeFirst: (executor, first) => writeFirstRevision(executor, { ...first, content: translated, links }),
        });
        resultSpaceId = space.id;
        resultRevisionId = space.revisionId;
      }
      const pageIds = [...new Set([...translation.translatedPageIds, ...state.pages.keys()])];
      await tx.translation.update({
        where: { id: translationId },
        data: {
          status: "completed",
          failureReason: null,
          resultSpaceId,
          resultRevisionId,
          runs: { increment: 1 },
          latestPages: state.pages.size,
          latestWords: words,
          latestRunDuration: seconds,
          totalWords: { increment: words },
          totalDuration: { increment: seconds },
          translatedPageIds: pageIds,
          updatedAt: now,
        },
      });
    });
  } catch (error) {
    await prisma.translation.update({
      where: { id: translationId },
      data: { status: "failed", failureReason: workFailureReason(error, config).slice(0, 500), updatedAt: now },
    });
    if (!isLastingWorkFailure(error)) throw error;
  }
}

/** Translations for `node`/`nodes`: where `GET /orgs/{organizationId}/translations/{translationId}` answers. */
export async function loadVisibleTranslations(ctx: RequestContext, ids: readonly string[]) {
  const rows = await ctx.prisma.translation.findMany({ where: { id: { in: [...ids] } } });
  return nullWhereRefused(ids, rows, (row) => getTranslation(ctx, row.organizationId, row.id));
}

export const translationJobs: ModuleJobs = {
  handlers: {
    [translationRunJobType]: {
      run: (prisma, job, now, { config, signal }) => processTranslationRun(prisma, job, now, config, signal),
    },
  },
};
