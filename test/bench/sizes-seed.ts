import type { Database } from "../../src/db/database.ts";
import { markdownSections } from "../../src/lib/markdown/text.ts";
import { anchoredSections } from "../../src/modules/content/page-sections.ts";
import { addMember, createApiToken, createUser } from "../../src/modules/user/user.service.ts";
import { newId } from "../../src/platform/ids.ts";
import { type BenchData, seedBenchData } from "./seed.ts";

// One organization at a size factor, as issue 53 measures it: 1x = 20 sites, 2,000 site spaces, 200 spaces of 50
// pages; a factor scales spaces, pages, revisions, comments, change requests and members, and one busy space (the
// first) grows with it (50 x factor pages). Content is written in SQL, in bulk: the services would take hours at 100x.

export interface SizedData extends BenchData {
  factor: number;
  /** A member with the organization's READ role and a few grants, through a team and directly. */
  readerToken: string;
  /** The busy space is `spaceId`; one of its pages, two levels down. */
  busyPageId: string;
  pages: number;
}

/** In every page: a search of it matches the whole organization. */
export const commonWord = "guide";
/** In one page of every fiftieth space. */
export const rareWord = "zeppelin";

const pagesPerSpace = 50;
/** Spaces whose content one statement writes. */
const chunk = 500;
const now = new Date("2026-01-01T00:00:00.000Z");

export async function seedSized(db: Database, factor: number): Promise<SizedData> {
  const data = await seedBenchData(db, {
    sites: 20,
    sectionsPerSite: 10,
    siteSpacesPerSection: 10,
    spaces: 200 * factor,
    changeRequests: 100 * factor,
    otherOrganizations: 0,
  });
  const spaces = await db.prisma.space.findMany({
    where: { organizationId: data.organizationId },
    select: { id: true, revisionId: true },
    orderBy: { createdAt: "asc" },
  });
  // The busy space first: seedBenchData creates spaces in one statement, so their order is not creation's.
  spaces.sort((a, b) => (a.id === data.spaceId ? -1 : b.id === data.spaceId ? 1 : 0));
  let pages = 0;
  await db.withRawConnection(
    async (connection) => {
      for (let from = 0; from < spaces.length; from += chunk) {
        const part = spaces.slice(from, from + chunk);
        const counts = part.map((space) => (space.id === data.spaceId ? pagesPerSpace * factor : pagesPerSpace));
        pages += counts.reduce((sum, count) => sum + count, 0);
        const params = [
          part.map((space) => space.id),
          part.map((space) => space.revisionId),
          counts,
          part.map((_, index) => from + index),
          now,
        ];
        // Each space: its current revision and an older one holding the same pages (history the search must skip).
        await connection.query(
          `WITH s AS (SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS s(id, rev, pages, ordinal))
          INSERT INTO "Revision" ("id", "spaceId", "parents", "type", "createdAt")
          SELECT r.id, s.id, ARRAY[]::text[], 'edits', $5 FROM s,
            LATERAL (VALUES (s.rev), ('rev_' || substr(md5(s.id || '/old'), 1, 20))) AS r(id)`,
          params,
        );
        await connection.query(
          `WITH s AS (SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS s(id, rev, pages, ordinal))
          INSERT INTO "PageVersion" ("id", "spaceId", "pageId", "type", "title", "slug", "markdown", "createdAt",
            "updatedAt", "linksExtracted")
          SELECT 'pv_' || substr(md5(s.id || '/' || g), 1, 20), s.id, 'page_' || substr(md5(s.id || '#' || g), 1, 20),
            'document',
            'Chapter ' || g || CASE WHEN s.ordinal % 50 = 0 AND g = 7 THEN ' on the ${rareWord}' ELSE '' END,
            'chapter-' || g,
            E'## Overview\\n\\nThis ${commonWord} explains topic ' || g || ' in depth. '
              || repeat('Lorem ipsum dolor sit amet, consectetur adipiscing elit. ', 12)
              || E'\\n\\n## Details\\n\\nMore of the ${commonWord}, step by step.\\n',
            $5, $5, true
          FROM s, generate_series(1, s.pages) AS g`,
          params,
        );
        // Ten root pages, the others under them; the current revision's rows go into the search table by trigger.
        await connection.query(
          `WITH s AS (SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS s(id, rev, pages, ordinal))
          INSERT INTO "RevisionPage" ("revisionId", "pageId", "versionId", "parentPageId", "position")
          SELECT r.id, 'page_' || substr(md5(s.id || '#' || g), 1, 20), 'pv_' || substr(md5(s.id || '/' || g), 1, 20),
            CASE WHEN g > 10 THEN 'page_' || substr(md5(s.id || '#' || ((g - 1) % 10 + 1)), 1, 20) END, g
          FROM s, generate_series(1, s.pages) AS g,
            LATERAL (VALUES (s.rev), ('rev_' || substr(md5(s.id || '/old'), 1, 20))) AS r(id)`,
          params.slice(0, 4),
        );
      }
    },
    { unbounded: true },
  );
  await seedSections(db, data.organizationId);

  // Members, teams and grants: every space open to members at READ, or private with a team's and a member's grant.
  const reader = await createUser(db.prisma, { email: `reader${factor}@bench.test`, displayName: "Bench Reader" });
  await addMember(db.prisma, data.organizationId, reader.id, "read", now);
  const { token: readerToken } = await createApiToken(db.prisma, reader.id, { label: "bench reader" });
  const userIds = Array.from({ length: 50 * factor }, () => newId("User"));
  await db.prisma.user.createMany({
    data: userIds.map((id, index) => ({
      id,
      email: `member${index}-${id}@bench.test`,
      displayName: `Member ${index}`,
    })),
  });
  await db.prisma.member.createMany({
    data: userIds.map((userId) => ({ organizationId: data.organizationId, userId, role: "read" as const })),
  });
  const teamIds = Array.from({ length: 5 * factor }, () => newId("Team"));
  await db.prisma.team.createMany({
    data: teamIds.map((id, index) => ({ id, organizationId: data.organizationId, title: `Team ${index}` })),
  });
  await db.prisma.teamMember.createMany({
    data: [
      { teamId: teamIds[0] as string, userId: reader.id, organizationId: data.organizationId },
      ...userIds.map((userId, index) => ({
        teamId: teamIds[index % teamIds.length] as string,
        userId,
        organizationId: data.organizationId,
      })),
    ],
  });
  const grants = spaces.flatMap((space, index) => [
    { id: newId("SpacePermission"), spaceId: space.id, teamId: teamIds[index % teamIds.length], role: "edit" as const },
    { id: newId("SpacePermission"), spaceId: space.id, userId: userIds[index % userIds.length], role: "read" as const },
  ]);
  for (let from = 0; from < grants.length; from += 5000) {
    await db.prisma.spacePermission.createMany({ data: grants.slice(from, from + 5000) });
  }
  await db.prisma.space.updateMany({
    where: { organizationId: data.organizationId, id: { in: spaces.filter((_, i) => i % 2 === 0).map((s) => s.id) } },
    data: { defaultLevel: "read" },
  });

  // Comments on the busy space, half of them in its change requests.
  const changeRequests = await db.prisma.changeRequest.findMany({
    where: { spaceId: data.spaceId },
    select: { id: true },
    take: 10,
  });
  const busy = spaces[0] as { id: string; revisionId: string };
  await db.prisma.comment.createMany({
    data: Array.from({ length: 400 * factor }, (_, index) => ({
      id: newId("Comment"),
      spaceId: busy.id,
      changeRequestId: index % 2 === 0 ? (changeRequests[index % changeRequests.length]?.id ?? null) : null,
      postedById: data.userId,
      revisionId: busy.revisionId,
      markdown: `Comment ${index}`,
      postedAt: new Date(now.getTime() + index),
    })),
  });
  const busyPage = await db.prisma.revisionPage.findFirstOrThrow({
    where: { revisionId: busy.revisionId, parentPageId: { not: null } },
    orderBy: { position: "desc" },
  });
  return { ...data, factor, readerToken, busyPageId: busyPage.pageId, pages };
}

/**
 * The sections the service stores with each version it writes (PageVersionSection), for the versions written above
 * in SQL: split once per distinct markdown, as the service splits them, and joined to the versions by markdown.
 */
async function seedSections(db: Database, organizationId: string): Promise<void> {
  const distinct = await db.prisma.$queryRaw<{ markdown: string }[]>`
    SELECT DISTINCT pv."markdown" FROM "PageVersion" AS pv JOIN "Space" AS sp ON sp."id" = pv."spaceId"
    WHERE sp."organizationId" = ${organizationId} AND pv."type" = 'document'`;
  const rows = distinct.flatMap(({ markdown }) =>
    anchoredSections("", markdownSections(markdown)).map((section, ordinal) => ({ markdown, ordinal, ...section })),
  );
  await db.withRawConnection(
    (connection) =>
      connection.query(
        `WITH s AS (SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[])
            AS s(markdown, ordinal, anchor, title, body))
        INSERT INTO "PageVersionSection" ("versionId", "ordinal", "anchor", "title", "body")
        SELECT pv."id", s.ordinal, s.anchor, CASE WHEN s.anchor IS NULL THEN pv."title" ELSE s.title END, s.body
        FROM "PageVersion" AS pv JOIN "Space" AS sp ON sp."id" = pv."spaceId" AND sp."organizationId" = $6
        JOIN s ON s.markdown = pv."markdown"
        WHERE pv."type" = 'document'
        ON CONFLICT DO NOTHING`,
        [
          rows.map((row) => row.markdown),
          rows.map((row) => row.ordinal),
          rows.map((row) => row.anchor),
          rows.map((row) => row.title),
          rows.map((row) => row.body),
          organizationId,
        ],
      ),
    { unbounded: true },
  );
}
