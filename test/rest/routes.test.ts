import { expect, it } from "vitest";
import { restRoutes } from "../../src/app/rest-routes.ts";
import { schema } from "../../src/app/schema.ts";
import { compileRoutes } from "../../src/rest/compiled-routes.ts";

// The server prepares a route's document on its first request (start-up stays short): every one is prepared here,
// so a document that no longer validates against the schema, or whose result path it does not select, fails CI.
it("parses, validates and plans the document of every REST route", () => {
  const routes = compileRoutes(schema, restRoutes);
  expect(routes.length).toBeGreaterThan(150);
  const broken = routes.flatMap((route) => {
    try {
      route.prepared();
      return [];
    } catch (error) {
      return [(error as Error).message];
    }
  });
  expect(broken).toEqual([]);
});

it("refuses a route whose document does not validate, when it is prepared", () => {
  const [route] = compileRoutes(schema, [
    { method: "GET", path: "/broken", operation: "broken", status: 200, document: "query broken { noSuchField }" },
  ]);
  expect(() => route?.prepared()).toThrow(/Route GET \/broken \(broken\): Cannot query field "noSuchField"/);
});
