import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { compressionThresholdBytes } from "../../src/http/compression.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { sseEvents } from "../helpers/sse.ts";

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  // Off: answers are compared byte for byte, and the bucket's count in `extensions.rateLimit` moves with each request.
  t = await startTestApp({ env: { RATE_LIMIT_USER: "0", RATE_LIMIT_ANONYMOUS: "0" } });
  org = await seedOrganization(t.db, "Compressed Org");
  for (const title of ["Guides", "Reference", "Changelog", "Tutorials", "Internal notes"]) {
    const space = await t.rest("POST", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
      body: { title },
    });
    expect(space.status).toBe(201);
  }
});

const decoders: Record<string, (bytes: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  deflate: inflateSync,
};

/** The response as sent (app.fetch does not decompress), its bytes and their decoded text. */
async function exchange(path: string, headers: Record<string, string>, init: RequestInit = {}) {
  const response = await t.app.fetch(new Request(`${baseUrl}${path}`, { ...init, headers }));
  const sent = Buffer.from(await response.arrayBuffer());
  const encoding = response.headers.get("content-encoding");
  const decode = encoding ? decoders[encoding] : undefined;
  if (encoding && !decode) throw new Error(`unexpected content-encoding ${encoding}`);
  return { response, sent, encoding, text: (decode ? decode(sent) : sent).toString("utf8") };
}

const listSpaces = (acceptEncoding: string) =>
  exchange(`/v1/orgs/${org.organizationId}/spaces`, {
    authorization: `Bearer ${org.members.admin.token}`,
    "accept-encoding": acceptEncoding,
  });

describe("GraphiQL's page", () => {
  it.each(["br", "gzip"])("is sent %s-compressed under 2 MB and decodes to the page", async (encoding) => {
    const plain = await exchange("/graphql", { accept: "text/html" });
    expect(plain.encoding).toBeNull();
    expect(plain.text).toContain("YogaGraphiQL");

    const compressed = await exchange("/graphql", { accept: "text/html", "accept-encoding": encoding });
    expect(compressed.response.status).toBe(200);
    expect(compressed.encoding).toBe(encoding);
    expect(compressed.response.headers.get("vary")).toContain("Accept-Encoding");
    expect(Number(compressed.response.headers.get("content-length"))).toBe(compressed.sent.length);
    expect(compressed.sent.length).toBeLessThan(2_000_000);
    expect(compressed.text).toBe(plain.text);

    // Compressed once: the next page is the same bytes.
    const again = await exchange("/graphql", { accept: "text/html", "accept-encoding": encoding });
    expect(again.sent.equals(compressed.sent)).toBe(true);
  });

  it("loads Monaco's workers from files of their own, compressed and kept by the browser", async () => {
    const page = await exchange("/graphql", { accept: "text/html" });
    const workers = JSON.parse(/const workers = (\{.*?\});/.exec(page.text)?.[1] ?? "{}") as Record<string, string>;
    expect(Object.keys(workers).sort()).toEqual(["editorWorkerService", "graphql", "json"]);
    for (const path of Object.values(workers)) {
      const worker = await exchange(path, { "accept-encoding": "gzip" });
      expect(worker.response.status).toBe(200);
      expect(worker.response.headers.get("content-type")).toContain("javascript");
      expect(worker.response.headers.get("cache-control")).toContain("immutable");
      expect(worker.encoding).toBe("gzip");
      expect(worker.text.length).toBeGreaterThan(100_000);
    }
    expect((await exchange("/graphiql/editor.0000000000000000.js", {})).response.status).toBe(404);
  });
});

describe("API answers", () => {
  it("are compressed above the threshold with the encoding the client weighs highest, decoding to the same JSON", async () => {
    const plain = await listSpaces("identity");
    expect(plain.encoding).toBeNull();
    expect(plain.sent.length).toBeGreaterThan(compressionThresholdBytes);
    expect(plain.response.headers.get("vary")).toContain("Accept-Encoding");
    const expected = JSON.parse(plain.text);
    expect(expected.items).toHaveLength(5);

    for (const [acceptEncoding, chosen] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["deflate", "deflate"],
      ["br;q=0.5, gzip;q=0.8", "gzip"],
      ["*", "br"],
      ["br;q=0, gzip;q=0, *", "deflate"],
    ] as const) {
      const answer = await listSpaces(acceptEncoding);
      expect(answer.encoding, acceptEncoding).toBe(chosen);
      expect(answer.sent.length).toBeLessThan(plain.sent.length);
      expect(Number(answer.response.headers.get("content-length"))).toBe(answer.sent.length);
      expect(JSON.parse(answer.text)).toEqual(expected);
    }
    expect((await listSpaces("")).encoding).toBeNull();
    expect((await listSpaces("gzip;q=0, br;q=0, deflate;q=0")).encoding).toBeNull();
  });

  it("compresses a large GraphQL answer", async () => {
    const query = JSON.stringify({ query: "{ __schema { types { name description } } }" });
    const post = (acceptEncoding: string) =>
      exchange(
        "/graphql",
        { "content-type": "application/json", accept: "application/json", "accept-encoding": acceptEncoding },
        { method: "POST", body: query },
      );
    const plain = await post("identity");
    const compressed = await post("gzip");
    expect(compressed.encoding).toBe("gzip");
    expect(compressed.sent.length).toBeLessThan(plain.sent.length / 2);
    expect(JSON.parse(compressed.text)).toEqual(JSON.parse(plain.text));
  });

  it("leaves a body under the threshold as it is", async () => {
    const small = await exchange(`/v1/orgs/${org.organizationId}`, {
      authorization: `Bearer ${org.members.admin.token}`,
      "accept-encoding": "br, gzip",
    });
    expect(small.response.status).toBe(200);
    expect(small.sent.length).toBeLessThan(compressionThresholdBytes);
    expect(small.encoding).toBeNull();
    expect(JSON.parse(small.text)).toMatchObject({ id: org.organizationId });
  });
});

describe("streamed answers", () => {
  it("sends a subscription's server-sent events uncompressed, each as it happens", async () => {
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
      body: { title: "Watched" },
    });
    const changeRequest = await t.rest<{ number: number }>("POST", `/spaces/${space.body.id}/change-requests`, {
      token: org.members.admin.token,
      body: { subject: "Streamed" },
    });
    const response = await t.app.fetch(
      new Request(`${baseUrl}/graphql`, {
        method: "POST",
        headers: {
          accept: "text/event-stream",
          "accept-encoding": "br, gzip",
          "content-type": "application/json",
          authorization: `Bearer ${org.members.admin.token}`,
        },
        body: JSON.stringify({
          query: `subscription Status($spaceId: ID!, $changeRequestId: ID!) {
            changeRequestUpdated(spaceId: $spaceId, changeRequestId: $changeRequestId) { subject }
          }`,
          variables: { spaceId: space.body.id, changeRequestId: String(changeRequest.body.number) },
        }),
      }),
    );
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    // yoga marks the stream `none` so that proxies leave it as it is too.
    expect(response.headers.get("content-encoding") ?? "none").toBe("none");
    const stream = sseEvents(response.body as NonNullable<Response["body"]>);
    // The stream is still open: the first event arrived without waiting for its end.
    expect((await stream.next())?.data?.changeRequestUpdated).toEqual({ subject: "Streamed" });
    await stream.close();
  });

  it("sends @defer's multipart answer uncompressed", async () => {
    const deferred = await exchange(
      "/graphql",
      {
        "content-type": "application/json",
        accept: "multipart/mixed",
        "accept-encoding": "gzip",
        authorization: `Bearer ${org.members.admin.token}`,
      },
      {
        method: "POST",
        body: JSON.stringify({
          query: `query Deferred($id: ID!) { organization(id: $id) { title ... @defer { spaces(first: 10) { nodes { title } } } } }`,
          variables: { id: org.organizationId },
        }),
      },
    );
    expect(deferred.response.headers.get("content-type")).toContain("multipart/mixed");
    expect(deferred.encoding).toBeNull();
    expect(deferred.text).toContain('"title":"Compressed Org"');
    expect(deferred.text).toContain('"Internal notes"');
  });
});
