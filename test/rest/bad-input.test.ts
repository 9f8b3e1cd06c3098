import { expect, it } from "vitest";
import { restRoutes } from "../../src/app/rest-routes.ts";
import { seedOrganization, startTestApp } from "../helpers/app.ts";

// Every route, given malformed bodies and query values, answers with a 4xx and the error body, never a 5xx.
it("no route answers bad input with a server error", async () => {
  const t = await startTestApp();
  const org = await seedOrganization(t.db);
  const token = org.members.admin.token;
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token,
    body: { title: "S" },
  });
  const site = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/sites`, {
    token,
    body: { title: "Site", spaces: [space.body.id] },
  });
  const out: string[] = [];
  const bodies = [
    undefined,
    "{bad",
    "[]",
    "null",
    '"x"',
    JSON.stringify({
      title: 123,
      name: [],
      path: {},
      role: 5,
      position: "x",
      spaceId: 7,
      jsonSchema: "x",
      instructions: 1,
      source: 2,
      organization: 3,
      parent: 4,
      add: "x",
    }),
    JSON.stringify({ title: "x".repeat(5000) }),
  ];
  for (const route of restRoutes) {
    const path = route.path
      .replace("{organizationId}", org.organizationId)
      .replace("{siteId}", site.body.id)
      .replace("{spaceId}", space.body.id)
      .replace(/\{\w+\}/g, "zz_unknown");
    for (const rawBody of bodies) {
      for (const query of [
        {},
        { limit: "-1", page: "%%%", shareKey: "", default: "maybe", order: "sideways", status: "x" },
      ]) {
        const r = await t.rest(route.method, path, {
          token,
          rawBody: route.method === "GET" ? undefined : rawBody,
          query,
        });
        const errorBody = (r.body as { error?: { code?: number } } | undefined)?.error;
        if (r.status >= 500 || (r.status >= 400 && errorBody?.code !== r.status))
          out.push(
            `${route.method} ${route.path} body=${rawBody?.slice(0, 30)} q=${JSON.stringify(query)} -> ${r.status} ${JSON.stringify(r.body)}`,
          );
      }
    }
  }
  expect(out).toEqual([]);
}, 300_000);
