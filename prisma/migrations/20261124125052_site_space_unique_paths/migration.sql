-- Concurrent adds could give site spaces of one scope the same path: all but the oldest of each group get their
-- id's random tail appended (a valid path, unique because ids are), so that the unique index can be built.
UPDATE "SiteSpace" AS s
SET "path" = left(s."path", 80) || '-' || lower(right(s."id", 12))
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "siteId", "sectionId", "path" ORDER BY "createdAt", "id") AS n
  FROM "SiteSpace"
) AS d
WHERE d."id" = s."id" AND d.n > 1;

-- CreateIndex
-- Hand-edited: NULLS NOT DISTINCT (PostgreSQL 15+) makes the root site spaces of a site (sectionId NULL) one
-- scope too; Prisma's schema cannot say so and its diff does not see the difference.
CREATE UNIQUE INDEX "SiteSpace_siteId_sectionId_path_key" ON "SiteSpace"("siteId", "sectionId", "path") NULLS NOT DISTINCT;
