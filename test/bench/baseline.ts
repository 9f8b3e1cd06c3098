import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import pg from "pg";

// The baseline: node:http + pg answering the benchmark's requests with hand-written SQL and the same JSON bytes,
// doing the same work our server must do (authenticate the token, check membership and role, read the rows).
// It covers what the benchmark's data needs (an organization admin, unpublished sites), nothing more.
// Columns are `timestamp(3)` without time zone holding UTC, as Prisma writes them.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => new Date(`${value.replace(" ", "T")}Z`));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const port = Number(process.env.PORT);
const publicUrl = process.env.PUBLIC_URL as string;

let statements = 0;
async function query<Row>(sql: string, params: unknown[]): Promise<Row[]> {
  statements += 1;
  return (await pool.query(sql, params)).rows as Row[];
}

class HttpError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

async function viewerUserId(authorization: string | undefined): Promise<string> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  const lookup = token ? /^dmt_([0-9A-Za-z]{16})_/.exec(token)?.[1] : undefined;
  if (!token || !lookup) throw new HttpError(401);
  const [row] = await query<{ userId: string; hash: string }>(
    `SELECT "userId", hash FROM "ApiToken" WHERE lookup = $1 AND "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > now())`,
    [lookup],
  );
  if (!row) throw new HttpError(401);
  const actual = createHash("sha256").update(token).digest();
  const expected = Buffer.from(row.hash, "hex");
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw new HttpError(401);
  return row.userId;
}

const roles = ["read", "comment", "edit", "review", "create", "admin"];
const atLeast = (role: string | null, least: string) => roles.indexOf(role ?? "") >= roles.indexOf(least);

/** The caller's organization role; 404 for non-members, like the server. */
async function memberRole(organizationId: string, userId: string): Promise<string | null> {
  const [member] = await query<{ role: string | null }>(
    `SELECT role FROM "Member" WHERE "organizationId" = $1 AND "userId" = $2 AND NOT disabled`,
    [organizationId, userId],
  );
  if (!member) throw new HttpError(404);
  return member.role;
}

async function siteStructure(organizationId: string) {
  const sites = await query<{ id: string; title: string }>(
    `SELECT id, title FROM "Site" WHERE "organizationId" = $1 ORDER BY "createdAt", id LIMIT 20`,
    [organizationId],
  );
  const sections = await query<{ id: string; siteId: string; title: string; path: string }>(
    `SELECT id, "siteId", title, path FROM "SiteSection" WHERE "siteId" = ANY($1) ORDER BY position, id`,
    [sites.map((site) => site.id)],
  );
  const siteSpaces = await query<{
    id: string;
    sectionId: string;
    path: string;
    spaceId: string;
    title: string;
    emoji: string;
  }>(
    `SELECT ss.id, ss."sectionId", ss.path, sp.id AS "spaceId", sp.title, sp.emoji
       FROM "SiteSpace" ss JOIN "Space" sp ON sp.id = ss."spaceId"
      WHERE ss."sectionId" = ANY($1) AND sp."deletedAt" IS NULL
      ORDER BY ss.position, ss.id`,
    [sections.map((section) => section.id)],
  );
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

interface SpaceRow {
  id: string;
  organizationId: string;
  parentId: string | null;
  title: string;
  emoji: string;
  visibility: string;
  editMode: string;
  defaultLevel: string | null;
  language: string | null;
  mergeRules: unknown;
  revisionId: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

const spaceColumns = `sp.id, sp."organizationId", sp."parentId", sp.title, sp.emoji, sp.visibility, sp."editMode",
  sp."defaultLevel", sp.language, sp."mergeRules", sp."revisionId", sp."createdAt", sp."updatedAt", sp."deletedAt",
  sp.comments, sp."changeRequests", sp."changeRequestsOpen", sp."changeRequestsDraft"`;

/** The REST space object, keys in the server's order, nulls dropped except `defaultLevel`. */
function spaceJson(space: SpaceRow, role: string | null) {
  return {
    object: "space",
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility,
    createdAt: space.createdAt.toISOString(),
    updatedAt: space.updatedAt.toISOString(),
    deletedAt: space.deletedAt?.toISOString(),
    editMode: space.editMode,
    mergeRules: space.mergeRules,
    urls: { location: `${publicUrl}/v1/spaces/${space.id}`, app: `${publicUrl}/graphql` },
    organization: space.organizationId,
    parent: space.parentId ?? undefined,
    language: space.language ?? undefined,
    revision: space.revisionId,
    defaultLevel: space.defaultLevel,
    comments: space.comments,
    changeRequests: space.changeRequests,
    changeRequestsOpen: space.changeRequestsOpen,
    changeRequestsDraft: space.changeRequestsDraft,
    permissions: {
      view: atLeast(role, "read"),
      access: atLeast(role, "read"),
      admin: atLeast(role, "admin"),
      viewInviteLinks: atLeast(role, "create"),
      edit: atLeast(role, "edit") && space.editMode !== "locked",
      triggerGitSync: atLeast(role, "create"),
      comment: atLeast(role, "comment"),
      merge: atLeast(role, "review"),
      review: atLeast(role, "review"),
      installIntegration: atLeast(role, "admin"),
    },
  };
}

/** A live space the caller administers through their organization role (the benchmark's caller). */
async function readableSpace(spaceId: string, userId: string): Promise<{ space: SpaceRow; role: string }> {
  const [space] = await query<SpaceRow>(`SELECT ${spaceColumns} FROM "Space" sp WHERE sp.id = $1`, [spaceId]);
  if (!space || space.deletedAt) throw new HttpError(404);
  const role = await memberRole(space.organizationId, userId);
  if (role !== "admin") throw new HttpError(403);
  return { space, role };
}

function pageSize(url: URL): number {
  const limit = Number(url.searchParams.get("limit") ?? 100);
  if (!Number.isInteger(limit) || limit < 0 || limit > 1000) throw new HttpError(400);
  return limit;
}

async function listSiteSpaces(url: URL, organizationId: string, siteId: string, userId: string) {
  const role = await memberRole(organizationId, userId);
  if (!atLeast(role, "read")) throw new HttpError(403);
  const [site] = await query<{ published: boolean }>(
    `SELECT published FROM "Site" WHERE id = $1 AND "organizationId" = $2`,
    [siteId, organizationId],
  );
  if (!site) throw new HttpError(404);
  if (site.published) throw new Error("the baseline serves unpublished sites only");
  const size = pageSize(url);
  const rows = await query<
    SpaceRow & { siteSpaceId: string; path: string; sectionId: string | null; siteSpaceTitle: string | null }
  >(
    `SELECT ss.id AS "siteSpaceId", ss.path, ss."sectionId", ss.title AS "siteSpaceTitle", ${spaceColumns}
       FROM "SiteSpace" ss JOIN "Space" sp ON sp.id = ss."spaceId"
      WHERE ss."siteId" = $1 AND sp."deletedAt" IS NULL
      ORDER BY ss.position, ss.id`,
    [siteId],
  );
  const sections = await query<{ id: string; defaultSiteSpaceId: string | null }>(
    `SELECT id, "defaultSiteSpaceId" FROM "SiteSection" WHERE "siteId" = $1`,
    [siteId],
  );
  const [siteDefault] = await query<{ defaultSiteSpaceId: string | null }>(
    `SELECT "defaultSiteSpaceId" FROM "Site" WHERE id = $1`,
    [siteId],
  );
  // The default of each scope (a section, or the site root): its pointer when it is there, else its first.
  const pointers = new Map<string | null, string | null>([
    [null, siteDefault?.defaultSiteSpaceId ?? null],
    ...sections.map((section) => [section.id, section.defaultSiteSpaceId] as const),
  ]);
  const byScope = new Map<string | null, string[]>();
  for (const row of rows) byScope.set(row.sectionId, [...(byScope.get(row.sectionId) ?? []), row.siteSpaceId]);
  const defaults = new Set<string>();
  for (const [scope, ids] of byScope) {
    const pointer = pointers.get(scope);
    defaults.add(pointer && ids.includes(pointer) ? pointer : (ids[0] as string));
  }
  if (rows.length > size) throw new Error("the baseline serves single pages only");
  return {
    items: rows.map((row) => ({
      object: "site-space",
      id: row.siteSpaceId,
      path: row.path,
      section: row.sectionId ?? undefined,
      space: spaceJson({ ...row, id: row.id }, role),
      title: row.siteSpaceTitle ?? row.title,
      default: defaults.has(row.siteSpaceId),
      hasAdvancedCustomizationFeature: false,
      urls: {},
    })),
    count: rows.length,
  };
}

async function listChangeRequests(url: URL, spaceId: string, userId: string) {
  const { space } = await readableSpace(spaceId, userId);
  const size = pageSize(url);
  const [rows, [total]] = await Promise.all([
    query<{
      id: string;
      number: number;
      status: string;
      subject: string;
      description: unknown;
      createdAt: Date;
      updatedAt: Date;
      revisionId: string;
      revisionInitial: string;
      revisionMergedAncestor: string | null;
      revisionMerged: string | null;
      comments: number;
      userId: string | null;
      displayName: string | null;
      email: string | null;
      photoURL: string | null;
    }>(
      `SELECT cr.id, cr.number, cr.status, cr.subject, cr.description, cr."createdAt", cr."updatedAt", cr."revisionId",
              cr."revisionInitial", cr."revisionMergedAncestor", cr."revisionMerged", cr.comments,
              u.id AS "userId", u."displayName", u.email, u."photoURL"
         FROM "ChangeRequest" cr LEFT JOIN "User" u ON u.id = cr."createdById"
        WHERE cr."spaceId" = $1 AND cr.status = 'open'
        ORDER BY cr."updatedAt" DESC, cr.id DESC
        LIMIT $2`,
      [spaceId, size + 1],
    ),
    query<{ count: string }>(`SELECT count(*) FROM "ChangeRequest" WHERE "spaceId" = $1 AND status = 'open'`, [
      spaceId,
    ]),
  ]);
  if (rows.length > size) throw new Error("the baseline serves single pages only");
  return {
    items: rows.map((row) => ({
      object: "change-request",
      id: row.id,
      number: row.number,
      status: row.status,
      subject: row.subject,
      description: row.description ?? undefined,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      space: spaceId,
      revision: row.revisionId,
      revisionInitial: row.revisionInitial,
      revisionMergedAncestor: row.revisionMergedAncestor ?? undefined,
      revisionMerged: row.revisionMerged ?? undefined,
      comments: row.comments,
      outdated: row.status !== "merged" && space.revisionId !== (row.revisionMergedAncestor ?? row.revisionInitial),
      urls: { app: `${publicUrl}/graphql`, location: `${publicUrl}/v1/spaces/${spaceId}/change-requests/${row.id}` },
      createdBy: row.userId
        ? {
            object: "user",
            id: row.userId,
            displayName: row.displayName,
            email: row.email,
            photoURL: row.photoURL ?? undefined,
            urls: { location: `${publicUrl}/v1/users/${row.userId}` },
          }
        : undefined,
    })),
    count: Number(total?.count),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function route(request: IncomingMessage, url: URL): Promise<unknown> {
  const userId = await viewerUserId(request.headers.authorization);
  if (url.pathname === "/graphql" && request.method === "POST") {
    const { variables } = JSON.parse(await readBody(request)) as { variables: { id: string } };
    await memberRole(variables.id, userId);
    return siteStructure(variables.id);
  }
  if (request.method !== "GET") throw new HttpError(404);
  const siteSpaces = /^\/v1\/orgs\/([^/]+)\/sites\/([^/]+)\/site-spaces$/.exec(url.pathname);
  if (siteSpaces) return listSiteSpaces(url, siteSpaces[1] as string, siteSpaces[2] as string, userId);
  const changeRequests = /^\/v1\/spaces\/([^/]+)\/change-requests$/.exec(url.pathname);
  if (changeRequests) return listChangeRequests(url, changeRequests[1] as string, userId);
  const space = /^\/v1\/spaces\/([^/]+)$/.exec(url.pathname);
  if (space) {
    const readable = await readableSpace(space[1] as string, userId);
    return spaceJson(readable.space, readable.role);
  }
  throw new HttpError(404);
}

async function handle(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? "/", "http://baseline");
  if (url.pathname === "/healthz") return response.writeHead(200).end("ok");
  // The benchmark reads this around a request to count its SQL statements.
  if (url.pathname === "/statements") return response.writeHead(200).end(String(statements));
  try {
    const body = JSON.stringify(await route(request, url));
    response.writeHead(200, { "content-type": "application/json" }).end(body);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    response.writeHead(error.status).end();
  }
}

createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    response.writeHead(500).end();
  });
}).listen(port, "127.0.0.1");
