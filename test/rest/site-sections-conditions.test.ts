import { beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/lib/errors.ts";
import { evaluateCondition, parseCondition } from "../../src/modules/site-structure/condition.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

describe("condition expressions", () => {
  const visitor = { claims: { plan: "pro", level: 3, beta: true, tags: { eu: true }, zero: 0 } };

  it("evaluates member access, literals, !, &&, ||, comparisons", () => {
    expect(evaluateCondition('visitor.claims.plan == "pro"', visitor)).toBe(true);
    expect(evaluateCondition("visitor.claims.plan != 'pro'", visitor)).toBe(false);
    expect(evaluateCondition("visitor.claims.level >= 3 && visitor.claims.level < 4", visitor)).toBe(true);
    expect(evaluateCondition("visitor.claims.level > 3 || visitor.claims.beta", visitor)).toBe(true);
    expect(evaluateCondition("!visitor.claims.beta", visitor)).toBe(false);
    expect(evaluateCondition('visitor.claims["tags"].eu === true', visitor)).toBe(true);
    expect(evaluateCondition("visitor.claims.missing.deeper == null", visitor)).toBe(false);
    expect(evaluateCondition("!visitor.claims.missing", visitor)).toBe(true);
    expect(evaluateCondition("(visitor.claims.zero)", visitor)).toBe(false);
    // No coercion: a string never orders against a number.
    expect(evaluateCondition('visitor.claims.level > "2"', visitor)).toBe(false);
    expect(evaluateCondition("true", {})).toBe(true);
  });

  it("refuses anything that could run code or leave the visitor's data", () => {
    for (const hostile of [
      "visitor.constructor.constructor('return process')()",
      "visitor.__proto__",
      "visitor['__proto__'].polluted",
      "visitor.claims.constructor",
      "process.exit(1)",
      "globalThis",
      "this.x",
      "require('fs')",
      "import('fs')",
      "eval('1')",
      "visitor.claims.plan = 'admin'",
      "visitor.claims[visitor.claims.plan]",
      "visitor.claims.level + 1 > 2",
      "visitor.claims.a ? 1 : 2",
      "[1, 2]",
      "/re/.test('x')",
      "`template`",
      "() => 1",
      "visitor.claims.a; visitor.claims.b",
      "visitor.claims.a ==",
      "((((",
      "x".repeat(1025),
      `${"!".repeat(2000)}visitor`,
    ]) {
      expect(() => parseCondition(hostile), hostile).toThrow(InvalidInputError);
      expect(evaluateCondition(hostile, visitor), hostile).toBe(false);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("published structure", () => {
  let t: TestApp;
  let org: SeededOrganization;

  beforeAll(async () => {
    t = await startTestApp();
    org = await seedOrganization(t.db, "Published Org");
  });

  it("leaves out sections and site spaces whose condition the visitor fails", async () => {
    const admin = org.members.admin.token;
    const site = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/sites`, { token: admin, body: {} });
    const base = `/orgs/${org.organizationId}/sites/${site.body.id}`;
    const section = async (title: string) => {
      const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
        token: admin,
        body: { title },
      });
      const created = await t.rest<{ id: string; siteSpaces: { id: string }[] }>("POST", `${base}/sections`, {
        token: admin,
        body: { spaceId: space.body.id },
      });
      return created.body;
    };
    const open = await section("Open");
    const gated = await section("Gated");
    const partly = await section("Partly");
    await t.rest("PATCH", `${base}/sections/${gated.id}`, {
      token: admin,
      body: { condition: "visitor.claims.plan == 'pro'" },
    });
    await t.rest("PATCH", `${base}/site-spaces/${partly.siteSpaces[0]?.id}`, {
      token: admin,
      body: { condition: "visitor.claims.beta" },
    });
    const published = await t.rest<{ structure: { type: string; structure: { id: string }[] } }>(
      "GET",
      `${base}/published`,
      { token: admin },
    );
    expect(published.status).toBe(200);
    expect(published.body.structure.type).toBe("sections");
    // Partly has no site space left for this visitor, so it goes too.
    expect(published.body.structure.structure.map((item) => item.id)).toEqual([open.id]);
    const managed = await t.rest<{ structure: { id: string }[] }>("GET", `${base}/structure`, { token: admin });
    expect(managed.body.structure.map((item) => item.id)).toEqual([open.id, gated.id, partly.id]);
  });
});
