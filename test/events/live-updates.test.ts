import { beforeAll, describe, expect, it } from "vitest";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { defineJob } from "../../src/jobs/registry.ts";
import { baseUrl, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { subscribe } from "../helpers/sse.ts";

const JobProgress = `subscription JobProgress($jobId: ID!) {
  jobProgress(jobId: $jobId) { id: jobId type status progressDone progressTotal progressMessage lastError }
}`;
const JobUpdates = `subscription JobUpdates($organizationId: ID!) {
  jobUpdates(organizationId: $organizationId) { id: jobId status progressDone }
}`;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

defineJob("count-to-three", {
  run: async (_prisma, _job, _now, { reportProgress }) => {
    for (let done = 1; done <= 3; done++) await reportProgress(done, 3, `step ${done}`);
  },
});

describe("subscription jobProgress over server-sent events", () => {
  it("sends the job's state, each progress report and the end, then completes", async () => {
    const org = await seedOrganization(t.db, "Watched");
    const job = await enqueueJob(t.db.prisma, "count-to-three", {}, t.clock.now(), org.organizationId);
    const stream = await subscribe(t.app.fetch, `${baseUrl}/graphql`, org.members.read.token, JobProgress, {
      jobId: job.id,
    });
    expect((await stream.next())?.data).toEqual({
      jobProgress: expect.objectContaining({ id: job.id, type: "count-to-three", status: "PENDING", progressDone: 0 }),
    });

    expect(await t.runJobs()).toBe(1);

    const seen = [];
    for (let event = await stream.next(); event; event = await stream.next()) seen.push(event.data?.jobProgress);
    expect(seen).toEqual([
      expect.objectContaining({ status: "RUNNING", progressDone: 0 }),
      expect.objectContaining({ status: "RUNNING", progressDone: 1, progressTotal: 3, progressMessage: "step 1" }),
      expect.objectContaining({ status: "RUNNING", progressDone: 2 }),
      expect.objectContaining({ status: "RUNNING", progressDone: 3 }),
      expect.objectContaining({ status: "DONE", progressDone: 3, progressTotal: 3 }),
    ]);
  });

  it("sends jobUpdates of the organization's jobs only, to its members", async () => {
    const org = await seedOrganization(t.db, "Busy");
    const other = await seedOrganization(t.db, "Quiet");
    const guest = await subscribe(t.app.fetch, `${baseUrl}/graphql`, org.members.guest.token, JobUpdates, {
      organizationId: org.organizationId,
    });
    expect((await guest.next())?.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN" });
    const stream = await subscribe(t.app.fetch, `${baseUrl}/graphql`, org.members.read.token, JobUpdates, {
      organizationId: org.organizationId,
    });
    const otherJob = await enqueueJob(t.db.prisma, "count-to-three", {}, t.clock.now(), other.organizationId);
    const job = await enqueueJob(t.db.prisma, "count-to-three", {}, t.clock.now(), org.organizationId);
    await t.runJobs();

    const ids = new Set<unknown>();
    for (;;) {
      const update = (await stream.next())?.data?.jobUpdates as { id: string; status: string };
      ids.add(update.id);
      if (update.status === "DONE") break;
    }
    expect([...ids]).toEqual([job.id]);
    expect(ids.has(otherJob.id)).toBe(false);
    await stream.close();
  });

  it("answers NOT_FOUND for a job of an organization the caller is not a member of", async () => {
    const org = await seedOrganization(t.db, "Private Jobs");
    const outsider = await seedOrganization(t.db, "Outsiders");
    const job = await enqueueJob(t.db.prisma, "count-to-three", {}, t.clock.now(), org.organizationId);
    const stream = await subscribe(t.app.fetch, `${baseUrl}/graphql`, outsider.members.admin.token, JobProgress, {
      jobId: job.id,
    });
    const event = await stream.next();
    expect(event?.errors?.[0]).toMatchObject({ extensions: { code: "NOT_FOUND" } });
    expect(await stream.next()).toBeNull();
  });
});
