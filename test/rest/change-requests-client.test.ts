import { ChangeRequestStatus, GitBookAPI, GitBookAPIError } from "@gitbook/api";
import { beforeAll, describe, expect, it } from "vitest";
import type { SeededOrganization, TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import { startOfficialClient } from "../helpers/official-client.ts";

// The official client, unchanged, driving change requests, reviews and content reads on a listening server.
let t: TestApp;
let org: SeededOrganization;
let api: GitBookAPI;
let reviewerApi: GitBookAPI;

beforeAll(async () => {
  let server: { url: string };
  ({ t, org, api, server } = await startOfficialClient("Change Requests Client Org"));
  reviewerApi = new GitBookAPI({ endpoint: server.url, authToken: org.members.review.token });
});

async function writePages(spaceId: string, changeRequestId: string, changes: unknown[], token: string) {
  const response = await t.rest<{ inserted: { id: string }[] }>(
    "POST",
    `/spaces/${spaceId}/change-requests/${changeRequestId}/content`,
    { token, body: { changes } },
  );
  expect(response.status).toBe(200);
  return response.body.inserted.map((item) => item.id);
}

async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof GitBookAPIError) return { code: error.code, message: error.errorMessage };
    throw error;
  }
  throw new Error("the call succeeded");
}

describe("@gitbook/api GitBookAPI: change requests", () => {
  it("creates, lists, edits, reviews under merge rules, merges and reads content", async () => {
    const space = await api.orgs.createSpace(org.organizationId, { title: "Client content" });
    const spaceId = space.data.id;
    const reviewerId = org.members.review.id;
    await api.spaces.updateSpaceById(spaceId, {
      mergeRules: { type: "rules", rules: [{ rule: "require_specific_reviewers", users: [reviewerId] }] },
    } as never);

    const created = await api.spaces.createChangeRequest(spaceId, { subject: "Client pages" });
    expect(created.status).toBe(201);
    expectMatchesSpec("createChangeRequest", 201, created.data);
    const changeRequestId = created.data.id;
    const [pageId] = await writePages(
      spaceId,
      changeRequestId,
      [{ type: "insert", page: { title: "Hello", markdown: "Hello **world**.\n" } }],
      org.members.edit.token,
    );

    const listed = await api.spaces.listChangeRequestsForSpace(spaceId, { status: ChangeRequestStatus.Open });
    expectMatchesSpec("listChangeRequestsForSpace", 200, listed.data);
    expect(listed.data.items.map((cr) => cr.id)).toEqual([changeRequestId]);
    const orgList = await api.orgs.listChangeRequestsForOrganization(org.organizationId, {
      contributor: org.members.edit.id,
    });
    expectMatchesSpec("listChangeRequestsForOrganization", 200, orgList.data);
    expect(orgList.data.items.map((cr) => cr.id)).toEqual([changeRequestId]);

    const patched = await api.spaces.updateChangeRequestById(spaceId, changeRequestId, {
      subject: "Client pages, reviewed",
      description: { object: "document", data: {}, nodes: [] },
    });
    expectMatchesSpec("updateChangeRequestById", 200, patched.data);
    expect(patched.data.subject).toBe("Client pages, reviewed");

    // The rules ask the reviewer's approval: merging before it is refused, and nothing moves.
    const refused = await refusal(api.spaces.mergeChangeRequest(spaceId, changeRequestId));
    expect(refused.code).toBe(403);
    expect(refused.message).toContain(reviewerId);

    const requested = await api.spaces.requestReviewersForChangeRequest(spaceId, changeRequestId, {
      users: [reviewerId],
    });
    expect(requested.status).toBe(200);
    const requestedList = await api.spaces.getRequestedReviewersByChangeRequestId(spaceId, changeRequestId);
    expectMatchesSpec("getRequestedReviewersByChangeRequestId", 200, requestedList.data);
    const waiting = await api.spaces.listChangeRequestsForSpace(spaceId, { requestedReviewer: reviewerId });
    expect(waiting.data.items.map((cr) => cr.id)).toEqual([changeRequestId]);

    // Reviews are given with the reviewer's own client.
    const changes = await reviewerApi.spaces.submitChangeRequestReview(spaceId, changeRequestId, {
      status: "changes-requested",
    } as never);
    expect(changes.status).toBe(201);
    expectMatchesSpec("submitChangeRequestReview", 201, changes.data);
    expect((await refusal(api.spaces.mergeChangeRequest(spaceId, changeRequestId))).code).toBe(403);
    t.clock.advance(1000);
    await reviewerApi.spaces.submitChangeRequestReview(spaceId, changeRequestId, { status: "approved" } as never);
    const reviews = await api.spaces.getReviewsByChangeRequestId(spaceId, changeRequestId);
    expectMatchesSpec("getReviewsByChangeRequestId", 200, reviews.data);
    expect(reviews.data.items.map((review) => [review.status, review.outdated])).toEqual([
      ["approved", false],
      ["changes-requested", true],
    ]);

    // New changes after the approval need a new approval.
    await writePages(
      spaceId,
      changeRequestId,
      [{ type: "update", pageId, page: { title: "Hello there" } }],
      org.members.edit.token,
    );
    expect((await refusal(api.spaces.mergeChangeRequest(spaceId, changeRequestId))).code).toBe(403);
    t.clock.advance(1000);
    await reviewerApi.spaces.submitChangeRequestReview(spaceId, changeRequestId, { status: "approved" } as never);

    const pdf = await api.spaces.getChangeRequestPdf(spaceId, changeRequestId);
    expectMatchesSpec("getChangeRequestPDF", 200, pdf.data);
    const crPages = await api.spaces.listPagesInChangeRequest(spaceId, changeRequestId);
    expectMatchesSpec("listPagesInChangeRequest", 200, crPages.data);

    const merged = await api.spaces.mergeChangeRequest(spaceId, changeRequestId);
    expectMatchesSpec("mergeChangeRequest", 200, merged.data);
    const fetched = await api.spaces.getChangeRequestById(spaceId, String(created.data.number));
    expectMatchesSpec("getChangeRequestById", 200, fetched.data);
    expect(fetched.data).toMatchObject({ status: "merged", revisionMerged: merged.data.revision });

    const revision = await api.spaces.getCurrentRevision(spaceId);
    expectMatchesSpec("getCurrentRevision", 200, revision.data);
    expect(revision.data.id).toBe(merged.data.revision);
    const pages = await api.spaces.listPages(spaceId);
    expectMatchesSpec("listPages", 200, pages.data);
    expect(pages.data.pages.map((page) => page.title)).toEqual(["Hello there"]);
    const page = await api.spaces.getPageById(spaceId, pageId as string, { format: "markdown" });
    expectMatchesSpec("getPageById", 200, page.data);
    expect(page.data).toMatchObject({ title: "Hello there", markdown: "Hello **world**.\n" });
    const crPage = await api.spaces.getPageInChangeRequestById(spaceId, changeRequestId, pageId as string);
    expectMatchesSpec("getPageInChangeRequestById", 200, crPage.data);
    const crRevision = await api.spaces.getRevisionOfChangeRequestById(spaceId, changeRequestId);
    expectMatchesSpec("getRevisionOfChangeRequestById", 200, crRevision.data);
    const files = await api.spaces.listFiles(spaceId);
    expectMatchesSpec("listFiles", 200, files.data);
    expect(files.data.items).toEqual([]);
  });

  it("lets reviewers review but not approve their own change request, and checks requested users", async () => {
    const space = await api.orgs.createSpace(org.organizationId, { title: "Own review" });
    const reviewerToken = org.members.review.token;
    const own = await t.rest<{ id: string }>("POST", `/spaces/${space.data.id}/change-requests`, {
      token: reviewerToken,
      body: {},
    });
    const base = `/spaces/${space.data.id}/change-requests/${own.body.id}`;
    expect(
      (await t.rest("POST", `${base}/reviews`, { token: reviewerToken, body: { status: "approved" } })).status,
    ).toBe(403);
    expect(
      (await t.rest("POST", `${base}/reviews`, { token: org.members.edit.token, body: { status: "approved" } })).status,
    ).toBe(403);
    expect((await t.rest("POST", `${base}/reviews`, { token: reviewerToken, body: { status: "maybe" } })).status).toBe(
      400,
    );
    expect(
      (await t.rest("POST", `${base}/requested-reviewers`, { token: reviewerToken, body: { users: ["user_nobody"] } }))
        .status,
    ).toBe(400);
    await t.rest("POST", `${base}/requested-reviewers`, {
      token: reviewerToken,
      body: { users: [org.members.admin.id] },
    });
    expect(
      (await t.rest("DELETE", `${base}/requested-reviewers/${org.members.admin.id}`, { token: reviewerToken })).status,
    ).toBe(204);
    const left = await t.rest<{ items: unknown[] }>("GET", `${base}/requested-reviewers`, { token: reviewerToken });
    expect(left.body.items).toEqual([]);
  });
});
