import { beforeAll, describe, expect, it } from "vitest";
import { typeOfId } from "../../src/platform/ids.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { graphqlAnswer } from "../helpers/graphql-answer.ts";
import { nodeMatrix, type TargetIds } from "../security/authorization-matrix.ts";
import { buildSecurityFixture, type SecurityFixture } from "../security/fixtures.ts";

/*
 * A normalized cache refetches what it holds by id, and one screen may hold the same object twice: every Node type,
 * its id asked for twice in one request (two `node` fields and a `nodes` list), answers it each time.
 */

let t: TestApp;
let fixture: SecurityFixture;

beforeAll(async () => {
  t = await startTestApp();
  fixture = await buildSecurityFixture(t);
}, 120_000);

const Twice = `
  query Twice($id: ID!) {
    a: node(id: $id) { __typename id }
    b: node(id: $id) { __typename id }
    c: nodes(ids: [$id, $id]) { __typename id }
  }
`;

describe("the same node twice in one request", () => {
  const names = Object.keys(nodeMatrix).filter((name) => name !== "apiTokenId") as (keyof TargetIds)[];

  it.each(names)("%s", async (name) => {
    const id = fixture.targets.own[name];
    const answer = await graphqlAnswer(t, fixture.own.members.admin.token, Twice, { id });
    expect(answer.errors).toBeUndefined();
    const node = { __typename: expect.any(String), id };
    expect(answer.data).toEqual({ a: node, b: node, c: [node, node] });
    expect(typeOfId(id)).toBeDefined();
  });

  it("the caller's own API token", async () => {
    const admin = fixture.own.members.admin;
    const token = await t.db.prisma.apiToken.findFirstOrThrow({ where: { userId: admin.id } });
    const answer = await graphqlAnswer(t, admin.token, Twice, { id: token.id });
    const node = { __typename: "APIToken", id: token.id };
    expect(answer).toEqual({ data: { a: node, b: node, c: [node, node] }, extensions: expect.anything() });
  });
});
