import { authorizeInOrganization } from "../../auth/authorize.ts";
import type { Job } from "../../db/generated/client.ts";
import { followedBy } from "../../events/bus.ts";
import type { JobUpdate } from "../../events/topics.ts";
import { jobUpdateOf } from "../../jobs/queue.ts";
import { isRefusal, NotFoundError } from "../../lib/errors.ts";
import type { RequestContext } from "../../request/context.ts";
import { canWatchJobs } from "./job.policy.ts";

const finished = (update: JobUpdate) => update.status === "done" || update.status === "failed";

/** A job the viewer may watch: one of an organization where they have a role (system jobs are nobody's). */
async function requireVisibleJob(ctx: RequestContext, jobId: string): Promise<Job> {
  const job = await ctx.prisma.job.findUnique({ where: { id: jobId } });
  if (!job?.organizationId) throw new NotFoundError(`Job ${jobId} not found`);
  await authorizeInOrganization(ctx, job.organizationId, canWatchJobs).catch((error: unknown) => {
    throw isRefusal(error) ? new NotFoundError(`Job ${jobId} not found`) : error;
  });
  return job;
}

/**
 * The job's current state, then each change until it is done or failed. Listening starts before the state is
 * read, so no change between the two is missed (a change may arrive twice; updates carry the whole state).
 */
export async function watchJob(ctx: RequestContext, jobId: string): Promise<AsyncGenerator<JobUpdate>> {
  const subscription = ctx.events.subscribe("jobUpdated", jobId);
  try {
    const job = await requireVisibleJob(ctx, jobId);
    return followedBy([jobUpdateOf(job)], subscription, finished);
  } catch (error) {
    subscription.close();
    throw error;
  }
}

/** Every change of the organization's jobs from now on (members with a role; guests see nothing). */
export async function watchOrganizationJobs(
  ctx: RequestContext,
  organizationId: string,
): Promise<AsyncGenerator<JobUpdate>> {
  await authorizeInOrganization(ctx, organizationId, canWatchJobs);
  return followedBy([], ctx.events.subscribe("organizationJobUpdated", organizationId), () => false);
}
