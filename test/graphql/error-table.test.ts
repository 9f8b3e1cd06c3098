import { expect, it } from "vitest";
import { type ErrorCode, statusOf } from "../../src/lib/error-codes.ts";
import { baseUrl, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

const createSpace = /* GraphQL */ `
  mutation CreateSpace($input: CreateSpaceInput!) {
    createSpace(input: $input) { space { id } }
  }
`;

async function graphqlErrorCode(t: TestApp, token: string | undefined, input: Record<string, unknown>) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await t.app.fetch(
    new Request(`${baseUrl}/graphql`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: createSpace, variables: { input } }),
    }),
  );
  const body = (await response.json()) as {
    errors?: { message: string; extensions: { code: string; status: number } }[];
  };
  return body.errors?.[0];
}

// One call made through both APIs fails with one kind of error: REST answers the status the error table gives the
// code GraphQL answers, in the public error body, with the same message.
it("answers each kind of error with the table's status over REST and its code over GraphQL", async () => {
  const t = await startTestApp();
  const org = await seedOrganization(t.db);
  const other = await seedOrganization(t.db, "Other");
  const cases: { kind: ErrorCode; token?: string; organizationId: string; body: Record<string, unknown> }[] = [
    { kind: "UNAUTHENTICATED", organizationId: org.organizationId, body: { title: "S" } },
    { kind: "FORBIDDEN", token: org.members.read.token, organizationId: org.organizationId, body: { title: "S" } },
    { kind: "NOT_FOUND", token: org.members.admin.token, organizationId: other.organizationId, body: { title: "S" } },
    {
      kind: "BAD_USER_INPUT",
      token: org.members.admin.token,
      organizationId: org.organizationId,
      body: { title: "x".repeat(51) },
    },
  ];
  for (const { kind, token, organizationId, body } of cases) {
    const graphqlError = await graphqlErrorCode(t, token, { organizationId, ...body });
    expect(graphqlError?.extensions, kind).toMatchObject({ code: kind, status: statusOf(kind) });
    const rest = await t.rest<{ error: { code: number; message: string } }>("POST", `/orgs/${organizationId}/spaces`, {
      token,
      body,
    });
    expect(rest.status, kind).toBe(statusOf(kind));
    expect(rest.body, kind).toEqual({ error: { code: statusOf(kind), message: graphqlError?.message } });
  }
});
