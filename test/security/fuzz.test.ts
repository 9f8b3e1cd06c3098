import fc from "fast-check";
import { Kind, type OperationDefinitionNode, parse } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { restRoutes } from "../../src/app/rest-routes.ts";
import { baseUrl, startTestApp, type TestApp } from "../helpers/app.ts";
import { restMatrix, type TargetIds } from "./authorization-matrix.ts";
import { buildSecurityFixture, type SecurityFixture } from "./fixtures.ts";

/** Fixed in CI so a failure replays; FUZZ_SEED and FUZZ_RUNS explore further by hand. */
const seed = Number(process.env.FUZZ_SEED ?? 20261122);
const runsPerRoute = Number(process.env.FUZZ_RUNS ?? 40);

/** What no response body may show: stack traces, SQL, database and framework internals. */
const leaks = [
  /\bat .+:\d+:\d+/,
  /\.ts:\d+/,
  /node_modules/,
  /prisma/i,
  /pglite|postgres/i,
  /\b(SELECT|INSERT INTO|UPDATE "|DELETE FROM)\b/,
  /\$input\b/,
  /TypeError|ReferenceError|RangeError|SyntaxError/,
  /\[object Object\]|undefined is not/,
];

let t: TestApp;
let fixture: SecurityFixture;

beforeAll(async () => {
  // Off: thousands of requests in one burst, far past a person's points; this file tests that no input answers 5xx.
  t = await startTestApp({ env: { RATE_LIMIT_USER: "0", RATE_LIMIT_ANONYMOUS: "0" } });
  fixture = await buildSecurityFixture(t);
}, 180_000);

const nastyStrings = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "\uD800",
  "\u202E\u0301",
  "𝕏😀👩‍👩‍👧",
  '\'; DROP TABLE "Space"; --',
  "../../etc/passwd",
  "%",
  "%00",
  "%E0%A4%A",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "null",
  "-1",
  "1e309",
  "org_",
  "space_\u0000",
);

const strings = fc.oneof(
  nastyStrings,
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 600 }).map((value) => value.repeat(20)),
);

const numbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -0, 0.5),
);

const values: fc.Arbitrary<unknown> = fc.oneof(
  strings,
  numbers,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(strings, numbers), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(strings, numbers), { maxKeys: 4 }),
);

/** Bodies: anything JSON, raw text that is not quite JSON, and a valid body with one field made wrong. */
function bodies(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = Object.keys(valid);
  const keyOf = keys.length > 0 ? fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 12 })) : fc.string();
  return fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
    fc.tuple(keyOf, values).map(([key, value]) => JSON.stringify({ ...valid, [key]: value })),
    keyOf.map((key) => {
      const { [key]: _removed, ...rest } = valid;
      return JSON.stringify(rest);
    }),
    fc.constantFrom(
      '{"title": 1e400}',
      '{"title": 123456789012345678901234567890}',
      "{",
      "[]",
      '"x"',
      "{}}",
      "\uFEFF{}",
    ),
    fc
      .tuple(keyOf, fc.constantFrom("1e400", "-1e400", "123456789012345678901234567890"))
      .map(([key, number]) => `{${JSON.stringify(key)}: ${number}}`),
  );
}

/** Page tokens: random text, base64url of random JSON, and of JSON that looks like a cursor. */
const pageTokens = fc.oneof(
  strings,
  fc.jsonValue({ maxDepth: 2 }).map((value) => Buffer.from(JSON.stringify(value)).toString("base64url")),
  fc
    .record({
      // Orders of real lists, so that forged values reach the keyset queries.
      order: fc.constantFrom("createdAt asc,id asc", "updatedAt desc,id desc", "position asc,id asc", "title asc"),
      values: fc.array(fc.oneof(strings, numbers, fc.record({ d: strings })), { maxLength: 3 }),
    })
    .map((value) => Buffer.from(JSON.stringify(value)).toString("base64url")),
);

const malformedIds = fc.oneof(
  strings.filter((value) => value.length > 0 && value.length < 2000),
  fc.uuid(),
);

function variablesOf(document: string): string[] {
  const operation = parse(document).definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  return (operation?.variableDefinitions ?? []).map((definition) => definition.variable.name.value);
}

function queryValues(names: string[]): fc.Arbitrary<Record<string, string>> {
  const entries = names.map((name) => {
    const value = name === "page" ? pageTokens : name === "limit" ? numbers.map(String) : strings;
    return [name, fc.option(value, { nil: undefined })] as const;
  });
  return fc
    .record(Object.fromEntries(entries))
    .map(
      (record) =>
        Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Record<string, string>,
    );
}

async function send(method: string, path: string, query: Record<string, string>, body: string | undefined) {
  const url = new URL(`/v1${path}`, baseUrl);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const response = await t.app.fetch(
    new Request(url, {
      method,
      headers: { authorization: `Bearer ${fixture.own.members.admin.token}`, "content-type": "application/json" },
      body,
    }),
  );
  return { status: response.status, text: await response.text() };
}

function assertSafe(label: string, response: { status: number; text: string }) {
  expect(response.status, `${label}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
  for (const leak of leaks) expect(response.text, label).not.toMatch(leak);
  if (response.status >= 400) {
    expect(JSON.parse(response.text), label).toEqual({ error: { code: response.status, message: expect.any(String) } });
  }
}

/** A lone surrogate cannot be sent in a URL at all (it has no UTF-8 form): clients send U+FFFD instead. */
const wellFormed = (value: string) =>
  value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

let requests = 0;

describe("fuzzing every /v1 route (fixed seed)", { timeout: 120_000 }, () => {
  it.each(restRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))("%s", async (key, route) => {
    const names = variablesOf(route.document);
    const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
    const queryNames = names.filter((name) => name !== "input" && !pathNames.includes(name));
    const ids = fixture.targets.own;
    const valid = (restMatrix[key]?.body?.(ids) ?? {}) as Record<string, unknown>;
    // Writes keep valid ids so that their bodies reach validation; deletes get only malformed ids (the fixture
    // stays), everything else a mix.
    const idsFor = (own: fc.Arbitrary<string>) => {
      if (route.method === "DELETE") return malformedIds;
      return names.includes("input") ? own : fc.oneof(own, malformedIds);
    };
    const pathValues = fc.record(
      Object.fromEntries(pathNames.map((name) => [name, idsFor(fc.constant(ids[name as keyof TargetIds]))])),
    );
    await fc.assert(
      fc.asyncProperty(
        pathValues,
        queryValues(queryNames),
        names.includes("input") ? bodies(valid) : fc.constant(undefined),
        async (params, query, body) => {
          const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
            encodeURIComponent(wellFormed(String(params[name]))),
          );
          requests += 1;
          assertSafe(
            `${route.method} ${path} ${body?.slice(0, 200) ?? ""}`,
            await send(route.method, path, query, body),
          );
        },
      ),
      { seed, numRuns: runsPerRoute },
    );
  });

  it("sent thousands of requests", () => {
    expect(requests).toBeGreaterThanOrEqual(Math.min(2000, restRoutes.length * runsPerRoute));
  });
});
