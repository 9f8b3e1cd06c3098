import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import pg from "pg";

// The baseline: node:http + pg answering the benchmark's requests with hand-written SQL and the same JSON bytes,
// doing the same work our server must do (authenticate the token, check membership, read the structure).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const port = Number(process.env.PORT);

async function viewerUserId(authorization: string | undefined): Promise<string | null> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  const lookup = token ? /^dmt_([0-9A-Za-z]{16})_/.exec(token)?.[1] : undefined;
  if (!token || !lookup) return null;
  const { rows } = await pool.query(
    `SELECT "userId", hash FROM "ApiToken" WHERE lookup = $1 AND "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > now())`,
    [lookup],
  );
  const row = rows[0] as { userId: string; hash: string } | undefined;
  if (!row) return null;
  const actual = createHash("sha256").update(token).digest();
  const expected = Buffer.from(row.hash, "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? row.userId : null;
}

async function siteStructure(organizationId: string) {
  const sites = (
    await pool.query(`SELECT id, title FROM "Site" WHERE "organizationId" = $1 ORDER BY "createdAt", id LIMIT 20`, [
      organizationId,
    ])
  ).rows as { id: string; title: string }[];
  const sections = (
    await pool.query(
      `SELECT id, "siteId", title, path FROM "SiteSection" WHERE "siteId" = ANY($1) ORDER BY position, id`,
      [sites.map((site) => site.id)],
    )
  ).rows as { id: string; siteId: string; title: string; path: string }[];
  const siteSpaces = (
    await pool.query(
      `SELECT ss.id, ss."sectionId", ss.path, sp.id AS "spaceId", sp.title, sp.emoji
         FROM "SiteSpace" ss JOIN "Space" sp ON sp.id = ss."spaceId"
        WHERE ss."sectionId" = ANY($1) AND sp."deletedAt" IS NULL
        ORDER BY ss.position, ss.id`,
      [sections.map((section) => section.id)],
    )
  ).rows as { id: string; sectionId: string; path: string; spaceId: string; title: string; emoji: string }[];
  const spacesBySection = new Map<string, unknown[]>();
  for (const row of siteSpaces) {
    const list = spacesBySection.get(row.sectionId) ?? [];
    list.push({ id: row.id, path: row.path, space: { id: row.spaceId, title: row.title, emoji: row.emoji } });
    spacesBySection.set(row.sectionId, list);
  }
  const sectionsBySite = new Map<string, unknown[]>();
  for (const section of sections) {
    const list = sectionsBySite.get(section.siteId) ?? [];
    if (list.length < 10) {
      list.push({
        id: section.id,
        title: section.title,
        path: section.path,
        siteSpaces: spacesBySection.get(section.id) ?? [],
      });
    }
    sectionsBySite.set(section.siteId, list);
  }
  return {
    data: {
      organization: {
        sites: {
          nodes: sites.map((site) => ({
            id: site.id,
            title: site.title,
            sections: { nodes: sectionsBySite.get(site.id) ?? [] },
          })),
        },
      },
    },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function handle(request: IncomingMessage, response: ServerResponse) {
  if (request.url === "/healthz") return response.writeHead(200).end("ok");
  if (request.url !== "/graphql" || request.method !== "POST") return response.writeHead(404).end();
  const { variables } = JSON.parse(await readBody(request)) as { variables: { id: string } };
  const userId = await viewerUserId(request.headers.authorization);
  const member = userId
    ? (
        await pool.query(`SELECT 1 FROM "Member" WHERE "organizationId" = $1 AND "userId" = $2 AND NOT disabled`, [
          variables.id,
          userId,
        ])
      ).rowCount
    : 0;
  if (!member) return response.writeHead(401).end();
  const body = JSON.stringify(await siteStructure(variables.id));
  response.writeHead(200, { "content-type": "application/json" }).end(body);
}

createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    response.writeHead(500).end();
  });
}).listen(port, "127.0.0.1");
