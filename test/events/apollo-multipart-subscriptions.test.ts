import { ApolloClient, gql, HttpLink, InMemoryCache } from "@apollo/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { openChangeRequest } from "../helpers/content.ts";

/*
 * Apollo Client's HttpLink subscribes over HTTP with `Accept: multipart/mixed;subscriptionSpec=1.0` (its multipart
 * subscription protocol), which the server answered 406: now each event is a part, through the same pipeline.
 */

const StatusUpdates = gql`
  subscription Status($spaceId: ID!, $changeRequestId: ID!) {
    changeRequestUpdated(spaceId: $spaceId, changeRequestId: $changeRequestId) { changeRequestId status subject }
  }
`;

let t: TestApp;
let org: SeededOrganization;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t.app);
  org = await seedOrganization(t.db, "Multipart");
});

afterAll(() => server.close());

function apolloClient(token: string) {
  return new ApolloClient({
    link: new HttpLink({ uri: `${server.url}/graphql`, headers: { authorization: `Bearer ${token}` } }),
    cache: new InMemoryCache(),
  });
}

/** The events of a subscription, one at a time. */
function eventsOf(client: ApolloClient, variables: Record<string, string>) {
  const queue: unknown[] = [];
  const waiting: ((value: unknown) => void)[] = [];
  const push = (value: unknown) => {
    const wake = waiting.shift();
    if (wake) wake(value);
    else queue.push(value);
  };
  const subscription = client.subscribe({ query: StatusUpdates, variables }).subscribe({
    next: (result) => push(result),
    error: (error: unknown) => push({ error }),
    complete: () => push("complete"),
  });
  return {
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiting.push(resolve))),
    close: () => subscription.unsubscribe(),
  };
}

describe("Apollo's multipart HTTP subscriptions", () => {
  it("sends the change request's state, then a change made through REST", async () => {
    const { spaceId, changeRequestId } = await openChangeRequest(t, org, "Watched over multipart");
    const events = eventsOf(apolloClient(org.members.read.token), { spaceId, changeRequestId });
    expect(await events.next()).toMatchObject({
      data: { changeRequestUpdated: { changeRequestId, status: "OPEN", subject: "Watch me" } },
    });
    const renamed = await t.rest("PATCH", `/spaces/${spaceId}/change-requests/${changeRequestId}`, {
      token: org.members.edit.token,
      body: { subject: "Renamed" },
    });
    expect(renamed.status).toBe(200);
    expect(await events.next()).toMatchObject({
      data: { changeRequestUpdated: { changeRequestId, status: "OPEN", subject: "Renamed" } },
    });
    events.close();
  });

  it("answers a refused subscription with its error in a part, then ends", async () => {
    const { spaceId, changeRequestId } = await openChangeRequest(t, org, "Watched over multipart");
    const outsider = await seedOrganization(t.db, "Multipart outsiders");
    const events = eventsOf(apolloClient(outsider.members.admin.token), { spaceId, changeRequestId });
    const first = (await events.next()) as { error?: { errors?: { extensions?: unknown }[] } };
    expect(JSON.stringify(first)).toContain("NOT_FOUND");
    events.close();
  });

  it("writes Apollo's parts: a heartbeat first, each event as { payload }, the closing boundary", async () => {
    const { spaceId, changeRequestId } = await openChangeRequest(t, org, "Watched over multipart");
    const outsider = await seedOrganization(t.db, "Multipart readers");
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: {
        accept: 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0,application/json',
        "content-type": "application/json",
        authorization: `Bearer ${outsider.members.admin.token}`,
      },
      body: JSON.stringify({
        query: StatusUpdates.loc?.source.body,
        variables: { spaceId, changeRequestId },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe('multipart/mixed; boundary="graphql"; subscriptionSpec="1.0"');
    const body = await response.text();
    const parts = body.split(/\r\n--graphql(?:--)?/).filter((part) => part.trim().length > 0);
    expect(parts.map((part) => JSON.parse(part.split("\r\n\r\n")[1] ?? "null"))).toEqual([
      {},
      {
        payload: {
          errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: "NOT_FOUND" }) })],
        },
      },
    ]);
    expect(body.startsWith("\r\n--graphql\r\n")).toBe(true);
    expect(body.endsWith("\r\n--graphql--\r\n")).toBe(true);
  });
});
