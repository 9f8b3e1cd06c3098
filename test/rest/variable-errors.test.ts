import { expect, it } from "vitest";
import { seedOrganization, startTestApp } from "../helpers/app.ts";

// Variables are checked before execution: the 400 names the body field or parameter and the problem.
it("words body and parameter type errors in terms of the request", async () => {
  const t = await startTestApp();
  const org = await seedOrganization(t.db);
  const token = org.members.admin.token;

  const badField = await t.rest("POST", `/orgs/${org.organizationId}/spaces`, { token, body: { title: ["x"] } });
  expect(badField.status).toBe(400);
  expect(badField.body).toEqual({
    error: { code: 400, message: expect.stringMatching(/^Invalid request body field title: .+/) },
  });

  const unknownField = await t.rest("POST", `/orgs/${org.organizationId}/spaces`, {
    token,
    body: { title: "S", nonsense: 1 },
  });
  expect(unknownField.status).toBe(400);
  expect(unknownField.body).toEqual({
    error: { code: 400, message: expect.stringMatching(/^Invalid request body( field nonsense)?: .*nonsense/) },
  });

  const badLimit = await t.rest("GET", `/orgs/${org.organizationId}/spaces?limit=1.5`, { token });
  expect(badLimit.status).toBe(400);
  expect(badLimit.body).toEqual({
    error: { code: 400, message: "Query parameter limit must be an integer between 0 and 1000" },
  });
});
