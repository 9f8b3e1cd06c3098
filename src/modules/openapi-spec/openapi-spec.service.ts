import { createHash } from "node:crypto";
import { z } from "zod";
import { viewerMembershipLoader } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import { hasRole } from "../../auth/roles.ts";
import type { PrismaExecutor } from "../../db/database.ts";
import type { Job, OpenAPISpec, OpenAPISpecVersion, PrismaClient } from "../../db/generated/client.ts";
import { enqueueJob, type ModuleJobs, maxAttempts } from "../../jobs/queue.ts";
import { ConflictError, NotFoundError, nullWhereRefused, retryOnUniqueViolation } from "../../lib/errors.ts";
import { parseInput } from "../../lib/validation.ts";
import { type PageArgs, paginate } from "../../paging/pagination.ts";
import type { Config } from "../../platform/config.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { SourceFetchError, safeFetchText } from "../../web/safe-fetch.ts";
import { runJobWork } from "../../workers/job-work.ts";
import { WorkOutOfMemoryError, WorkTimeoutError } from "../../workers/pool.ts";
import { specByIdLoader } from "./openapi-spec.loaders.ts";
import { canEditSpecs, canReadSpecs, sourcesOpenToAnyone } from "./openapi-spec.policy.ts";
import { type ProcessingProblem, processOpenApiSource, type SpecProcessing } from "./process.ts";

const processSpecJobType = "process-openapi-spec";

/** Reading specs needs the `read` organization role; creating, changing and deleting them needs `create`. */

const slugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/, "must be letters and digits in groups separated by single hyphens");

export const specSourceUrlSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe("Where the server fetches the document (http or https), at each processing"),
});
export const specSourceTextSchema = z.strictObject({
  text: z
    .string()
    .min(1)
    .max(10 * 1024 * 1024)
    .describe("The document itself, JSON or YAML"),
});
const sourceSchema = z.union([specSourceUrlSchema, specSourceTextSchema], {
  error: "source must be { url } (http or https) or { text }",
});

export const createSpecSchema = z.strictObject({
  slug: slugSchema.describe(
    "The spec's name in URLs, unique in the organization: letters and digits in groups joined by single hyphens",
  ),
  source: sourceSchema.describe("Where the document comes from: exactly one of url and text"),
});
export const putSpecSchema = z.strictObject({
  source: sourceSchema.describe("Where the document comes from: exactly one of url and text; replaces the source"),
});
export const visibilitySchema = z.strictObject({
  visibility: z
    .enum(["private", "public"])
    .describe("public: the versions' sources are readable without a token; private: organization members only"),
});

type SpecSource = z.infer<typeof sourceSchema>;

function sourceColumns(source: SpecSource) {
  return "url" in source ? { sourceURL: source.url, sourceText: null } : { sourceURL: null, sourceText: source.text };
}

/** The viewer's capabilities on the organization's specs. */
export async function specPermissions(ctx: RequestContext, spec: OpenAPISpec) {
  const membership = await viewerMembershipLoader(ctx).load(spec.organizationId);
  const organization = { id: spec.organizationId };
  return {
    view: canReadSpecs(membership, organization).allowed,
    edit: canEditSpecs(membership, organization).allowed,
  };
}

export function specLocation(ctx: RequestContext, spec: OpenAPISpec): string {
  return `${ctx.config.publicUrl}/v1/orgs/${spec.organizationId}/openapi/${spec.slug}`;
}

/** Where a version's source is served: `/openapi/{specId}/versions/{versionId}` (no token needed once public). */
export function versionSourceUrl(ctx: RequestContext, specId: string, versionId: string): string {
  return `${ctx.config.publicUrl}/openapi/${specId}/versions/${versionId}`;
}

async function findSpec(ctx: RequestContext, organizationId: string, slug: string): Promise<OpenAPISpec> {
  const spec = await ctx.prisma.openAPISpec.findUnique({ where: { organizationId_slug: { organizationId, slug } } });
  if (!spec) throw new NotFoundError(`OpenAPI specification ${slug} not found`);
  return spec;
}

export async function getSpec(ctx: RequestContext, organizationId: string, slug: string): Promise<OpenAPISpec> {
  await authorizeInOrganization(ctx, organizationId, canReadSpecs);
  return findSpec(ctx, organizationId, slug);
}

/**
 * An OpenAPI spec that content of the organization may reference, by slug or id. Callers without a role in the
 * organization cannot see its specs: for them it does not exist either (404).
 */
export async function getReferencedSpec(ctx: RequestContext, organizationId: string, slugOrId: string) {
  const membership = await viewerMembershipLoader(ctx).load(organizationId);
  const spec = hasRole(membership?.role, "read")
    ? await ctx.prisma.openAPISpec.findFirst({
        where: { organizationId, OR: [{ slug: slugOrId }, { id: slugOrId }] },
      })
    : null;
  if (!spec) throw new NotFoundError(`OpenAPI specification ${slugOrId} not found`);
  return spec;
}

/** Processing is an organization job, so its members can watch it (subscription `jobUpdates`). */
function enqueueProcessing(tx: PrismaExecutor, spec: { id: string; organizationId: string }, now: Date) {
  return enqueueJob(tx, processSpecJobType, { specId: spec.id }, now, spec.organizationId);
}

export async function createSpec(ctx: RequestContext, organizationId: string, input: unknown): Promise<OpenAPISpec> {
  await authorizeInOrganization(ctx, organizationId, canEditSpecs);
  const data = parseInput(createSpecSchema, input);
  const now = ctx.clock.now();
  return ctx.prisma.$transaction(async (tx) => {
    const taken = await tx.openAPISpec.findUnique({
      where: { organizationId_slug: { organizationId, slug: data.slug } },
    });
    if (taken) throw new ConflictError(`An OpenAPI specification with slug ${data.slug} already exists`);
    const spec = await tx.openAPISpec.create({
      data: {
        id: newId("OpenAPISpec"),
        organizationId,
        slug: data.slug,
        ...sourceColumns(data.source),
        createdAt: now,
        updatedAt: now,
      },
    });
    await enqueueProcessing(tx, spec, now);
    return spec;
  });
}

/**
 * PUT: creates the spec or gives it a new source; either way it is processed again. Of two concurrent PUTs that
 * both found no spec, the one whose create loses on the unique slug runs again and updates the winner's spec.
 */
export async function createOrUpdateSpec(
  ctx: RequestContext,
  organizationId: string,
  slug: string,
  input: unknown,
): Promise<{ created: boolean; spec: OpenAPISpec }> {
  await authorizeInOrganization(ctx, organizationId, canEditSpecs);
  parseInput(slugSchema, slug);
  const data = parseInput(putSpecSchema, input);
  const now = ctx.clock.now();
  return retryOnUniqueViolation(2, () => putSpec(ctx, organizationId, slug, data.source, now));
}

function putSpec(ctx: RequestContext, organizationId: string, slug: string, source: SpecSource, now: Date) {
  return ctx.prisma.$transaction(async (tx) => {
    const existing = await tx.openAPISpec.findUnique({ where: { organizationId_slug: { organizationId, slug } } });
    const spec = existing
      ? await tx.openAPISpec.update({
          where: { id: existing.id },
          data: { ...sourceColumns(source), processingState: "pending", updatedAt: now },
        })
      : await tx.openAPISpec.create({
          data: {
            id: newId("OpenAPISpec"),
            organizationId,
            slug,
            ...sourceColumns(source),
            createdAt: now,
            updatedAt: now,
          },
        });
    await enqueueProcessing(tx, spec, now);
    return { created: !existing, spec };
  });
}

/** Deletes the spec of this slug, if any; returns its id (null when there was none). */
export async function deleteSpec(ctx: RequestContext, organizationId: string, slug: string): Promise<string | null> {
  await authorizeInOrganization(ctx, organizationId, canEditSpecs);
  const spec = await ctx.prisma.openAPISpec.findFirst({ where: { organizationId, slug }, select: { id: true } });
  if (spec) await ctx.prisma.openAPISpec.deleteMany({ where: { id: spec.id } });
  return spec?.id ?? null;
}

export async function updateSpecVisibility(ctx: RequestContext, organizationId: string, slug: string, input: unknown) {
  await authorizeInOrganization(ctx, organizationId, canEditSpecs);
  const { visibility } = parseInput(visibilitySchema, input);
  const spec = await findSpec(ctx, organizationId, slug);
  return ctx.prisma.openAPISpec.update({
    where: { id: spec.id },
    data: { visibility, updatedAt: ctx.clock.now() },
  });
}

export async function listVersions(ctx: RequestContext, spec: OpenAPISpec, page: PageArgs) {
  return paginate<OpenAPISpecVersion>(page, {
    sort: [
      { field: "createdAt", direction: "desc" },
      { field: "id", direction: "desc" },
    ],
    where: { specId: spec.id },
    model: ctx.prisma.openAPISpecVersion,
  });
}

/** The spec's latest version; null before its first successful processing. */
export async function getLatestVersion(ctx: RequestContext, spec: OpenAPISpec): Promise<OpenAPISpecVersion | null> {
  return spec.lastVersionId
    ? await ctx.prisma.openAPISpecVersion.findUnique({ where: { id: spec.lastVersionId } })
    : null;
}

export async function getVersion(ctx: RequestContext, spec: OpenAPISpec, versionId: string) {
  const version = await ctx.prisma.openAPISpecVersion.findFirst({ where: { id: versionId, specId: spec.id } });
  if (!version) throw new NotFoundError(`Version ${versionId} of OpenAPI specification ${spec.slug} not found`);
  return version;
}

async function specOfVersion(ctx: RequestContext, version: OpenAPISpecVersion): Promise<OpenAPISpec> {
  const spec = await specByIdLoader(ctx).load(version.specId);
  if (!spec) throw new NotFoundError(`OpenAPI specification ${version.specId} not found`);
  return spec;
}

export async function versionLocation(ctx: RequestContext, version: OpenAPISpecVersion): Promise<string> {
  return `${specLocation(ctx, await specOfVersion(ctx, version))}/versions/${version.id}`;
}

/** A version's content: the parsed files, and where its source is served. */
export async function versionContent(ctx: RequestContext, version: OpenAPISpecVersion) {
  const spec = await specOfVersion(ctx, version);
  const url = versionSourceUrl(ctx, spec.id, version.id);
  return {
    filesystem: version.filesystem,
    url,
    urls: { source: spec.sourceURL ?? url, public: spec.visibility === "public" ? url : null },
  };
}

/**
 * The source of a version for `GET /openapi/{specId}/versions/{versionId}`: anyone once the spec is public,
 * otherwise members with the `read` role: no token is a 401, anyone else a 404 (private specs are not revealed).
 */
export async function readVersionSource(
  ctx: RequestContext,
  specId: string,
  versionId: string,
): Promise<{ source: string; contentType: string }> {
  const version = await ctx.prisma.openAPISpecVersion.findFirst({
    where: { id: versionId, specId },
    include: { spec: true },
  });
  if (!version) throw new NotFoundError("OpenAPI specification version not found");
  if (!sourcesOpenToAnyone(version.spec)) {
    await authorizeInOrganization(ctx, version.spec.organizationId, canReadSpecs);
  }
  const json = /^\s*[{[]/.test(version.source);
  return {
    source: version.source,
    contentType: json ? "application/json; charset=utf-8" : "application/yaml; charset=utf-8",
  };
}

function fileNameOf(spec: OpenAPISpec, source: string): string {
  const fromUrl = spec.sourceURL ? new URL(spec.sourceURL).pathname.split("/").pop() : undefined;
  if (fromUrl) return fromUrl;
  return /^\s*[{[]/.test(source) ? "openapi.json" : "openapi.yaml";
}

async function recordFailure(
  prisma: PrismaClient,
  specId: string,
  code: "FETCH_TIMEOUT" | "FETCH_ERROR" | "PARSE_ERROR",
  problems: ProcessingProblem[],
  retrying: boolean,
  now: Date,
) {
  await prisma.openAPISpec.update({
    where: { id: specId },
    data: {
      processingState: retrying ? "pending" : "complete",
      lastProcessedAt: now,
      lastProcessErrorCode: code,
      lastProcessedErrors: problems.map((problem) => ({ message: problem.message, code: problem.code })),
    },
  });
}

/**
 * Parses, bounds, dereferences and validates the source on a worker thread: past its deadline or its memory the
 * thread is terminated, and that is the spec's processing error (the same source would fail again: not retried).
 */
async function processOnWorker(source: string, config: Config, signal: AbortSignal): Promise<SpecProcessing> {
  try {
    const maxExpandedBytes = config.specMaxExpandedBytes;
    return await runJobWork<SpecProcessing>(config, "openapi-spec", { text: source, maxExpandedBytes }, signal, {
      bytes: Buffer.byteLength(source),
      run: () => processOpenApiSource(source, maxExpandedBytes),
    });
  } catch (error) {
    if (error instanceof WorkTimeoutError) {
      const message = `Processing the document takes more than the ${config.jobWorkTimeoutMs} ms allowed (JOB_WORK_TIMEOUT_MS)`;
      return { problems: [{ message, code: "PROCESSING_TIMEOUT" }] };
    }
    if (error instanceof WorkOutOfMemoryError) {
      const message = `Processing the document needs more than the ${config.workerMemoryMb} MiB allowed (WORKER_MEMORY_MB)`;
      return { problems: [{ message, code: "TOO_LARGE" }] };
    }
    throw error;
  }
}

/**
 * The processing job: fetches (or reads) the source, parses and validates it, and stores a new version when the
 * content changed. Failures are recorded on the spec and keep the previous version; fetch failures that may pass
 * (timeouts, unreachable or failing servers) are thrown so the job runner retries them with backoff.
 * Running it again after a crash is harmless: it starts from the spec's current source.
 */
async function processSpec(
  prisma: PrismaClient,
  job: Job,
  now: Date,
  config: Config,
  signal: AbortSignal,
): Promise<void> {
  const { specId } = job.payload as { specId: string };
  const spec = await prisma.openAPISpec.findUnique({ where: { id: specId } });
  if (!spec) return;
  await prisma.openAPISpec.update({ where: { id: spec.id }, data: { processingState: "progress" } });

  let source: string;
  try {
    source =
      spec.sourceText ??
      (await safeFetchText(spec.sourceURL ?? "", {
        allowHosts: config.openapiFetchAllowHosts,
        timeoutMs: config.openapiFetchTimeoutMs,
        connectTimeoutMs: config.openapiFetchConnectTimeoutMs,
        maxBytes: config.openapiFetchMaxBytes,
        signal,
      }));
  } catch (error) {
    if (!(error instanceof SourceFetchError)) throw error;
    const retrying = error.retryable && job.attempts < maxAttempts;
    await recordFailure(prisma, spec.id, error.code, [{ message: error.message, code: error.code }], retrying, now);
    if (retrying) throw error;
    return;
  }

  const processed = await processOnWorker(source, config, signal);
  if ("problems" in processed) {
    await recordFailure(prisma, spec.id, "PARSE_ERROR", processed.problems, false, now);
    return;
  }
  const { document } = processed;

  const contentHash = createHash("sha256").update(source).digest("hex");
  await prisma.$transaction(async (tx) => {
    // Two queued runs of one spec (two PUTs) may finish together: the row lock makes the second see the first's
    // version, so equal content never makes two versions.
    await tx.$queryRaw`SELECT "id" FROM "OpenAPISpec" WHERE "id" = ${spec.id} FOR UPDATE`;
    const current = await tx.openAPISpec.findUnique({ where: { id: spec.id } });
    if (!current) return;
    const latest = current.lastVersionId
      ? await tx.openAPISpecVersion.findUnique({ where: { id: current.lastVersionId } })
      : null;
    let lastVersionId = latest?.id ?? null;
    if (latest?.contentHash !== contentHash) {
      const version = await tx.openAPISpecVersion.create({
        data: {
          id: newId("OpenAPISpecVersion"),
          specId: spec.id,
          contentHash,
          source,
          filesystem: { [fileNameOf(spec, source)]: document } as object,
          createdAt: now,
        },
      });
      lastVersionId = version.id;
    }
    await tx.openAPISpec.update({
      where: { id: spec.id },
      data: {
        processingState: "complete",
        lastVersionId,
        lastProcessedAt: now,
        lastProcessErrorCode: null,
        lastProcessedErrors: [],
        updatedAt: now,
      },
    });
  });
}

/** Specs for `node`/`nodes`: where `GET /orgs/{organizationId}/openapi/{specSlug}` answers. */
export async function loadVisibleSpecs(ctx: RequestContext, ids: readonly string[]) {
  return nullWhereRefused(ids, await specByIdLoader(ctx).loadMany(ids), (spec) =>
    getSpec(ctx, spec.organizationId, spec.slug),
  );
}

/** Spec versions for `node`/`nodes`: where their spec is visible (as `GET .../versions/{versionId}`). */
export async function loadVisibleVersions(ctx: RequestContext, ids: readonly string[]) {
  const rows = await ctx.prisma.openAPISpecVersion.findMany({ where: { id: { in: [...ids] } } });
  return nullWhereRefused(ids, rows, async (row) => {
    const [spec] = await loadVisibleSpecs(ctx, [row.specId]);
    return spec ? getVersion(ctx, spec, row.id) : null;
  });
}

export const openApiSpecJobs: ModuleJobs = {
  handlers: {
    [processSpecJobType]: {
      run: (prisma, job, now, { config, signal }) => processSpec(prisma, job, now, config, signal),
    },
  },
};
