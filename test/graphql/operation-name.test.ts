import { beforeAll, describe, expect, it } from "vitest";
import { seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});

describe("documents of several operations", () => {
  it("run the operation each request's operationName names, first runs and repeats alike", async () => {
    const org = await seedOrganization(t.db, "Two operations");
    const query = `query Typename { __typename } query Title($id: ID!) { organization(id: $id) { title } }`;
    const ask = async (operationName: string) => {
      const response = await t.app.fetch(
        new Request("http://gateway.test/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${org.members.admin.token}` },
          body: JSON.stringify({
            query,
            operationName,
            variables: operationName === "Title" ? { id: org.organizationId } : {},
          }),
        }),
      );
      return (await response.json()).data;
    };
    // Each name's first run fills the caches; the later ones are served from them.
    for (const operationName of ["Typename", "Title", "Typename", "Title", "Title", "Typename"]) {
      expect([operationName, await ask(operationName)]).toStrictEqual([
        operationName,
        operationName === "Title" ? { organization: { title: "Two operations" } } : { __typename: "Query" },
      ]);
    }
  });
});
