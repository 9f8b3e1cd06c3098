-- A search ranks a bounded set of candidates (src/modules/search/search.service.ts): a word's title matches and its
-- most recently edited matches, each read through an index in the order that bounds it, so PostgreSQL stops after
-- the bound however many pages the word is in.

-- AlterTable: the version's edit time, copied like its vector; the title part of the vector, generated.
ALTER TABLE "SearchPage" ADD COLUMN "updatedAt" TIMESTAMP(3),
ADD COLUMN "titleVector" tsvector GENERATED ALWAYS AS (ts_filter("searchVector", '{a}')) STORED;

UPDATE "SearchPage" AS sp SET "updatedAt" = pv."updatedAt" FROM "PageVersion" AS pv WHERE pv."id" = sp."versionId";

ALTER TABLE "SearchPage" ALTER COLUMN "updatedAt" SET NOT NULL;

-- DropIndex: the first column of the organization's ordered index below.
DROP INDEX "SearchPage_organizationId_idx";

-- CreateIndex
CREATE INDEX "SearchPage_organizationId_updatedAt_spaceId_pageId_idx" ON "SearchPage"("organizationId", "updatedAt" DESC, "spaceId", "pageId");

-- CreateIndex
CREATE INDEX "SearchPage_spaceId_updatedAt_pageId_idx" ON "SearchPage"("spaceId", "updatedAt" DESC, "pageId");

-- CreateIndex
CREATE INDEX "SearchPage_titleVector_idx" ON "SearchPage" USING GIN ("titleVector");

-- The triggers of migration `search_pages`, now also copying the version's "updatedAt".
CREATE OR REPLACE FUNCTION "searchPagesFollowRevision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "SearchPage" AS sp
  WHERE sp."spaceId" = NEW."id"
    AND (sp."organizationId" <> NEW."organizationId" OR NOT EXISTS (
      SELECT 1 FROM "RevisionPage" AS rp
      JOIN "PageVersion" AS pv ON pv."id" = rp."versionId" AND pv."type" = 'document'
      WHERE rp."revisionId" = NEW."revisionId" AND rp."pageId" = sp."pageId"
    ));
  INSERT INTO "SearchPage" ("spaceId", "pageId", "organizationId", "versionId", "searchVector", "updatedAt")
  SELECT NEW."id", rp."pageId", NEW."organizationId", rp."versionId", pv."searchVector", pv."updatedAt"
  FROM "RevisionPage" AS rp
  JOIN "PageVersion" AS pv ON pv."id" = rp."versionId" AND pv."type" = 'document'
  WHERE rp."revisionId" = NEW."revisionId"
    AND NOT EXISTS (
      SELECT 1 FROM "SearchPage" AS sp
      WHERE sp."spaceId" = NEW."id" AND sp."pageId" = rp."pageId" AND sp."versionId" = rp."versionId"
    )
  ON CONFLICT ("spaceId", "pageId") DO UPDATE
    SET "versionId" = EXCLUDED."versionId", "searchVector" = EXCLUDED."searchVector",
      "updatedAt" = EXCLUDED."updatedAt";
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION "searchPagesOfCurrentRevision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SearchPage" ("spaceId", "pageId", "organizationId", "versionId", "searchVector", "updatedAt")
  SELECT s."id", added."pageId", s."organizationId", added."versionId", pv."searchVector", pv."updatedAt"
  FROM (SELECT DISTINCT "revisionId" FROM added) AS revision
  JOIN "Revision" AS r ON r."id" = revision."revisionId"
  JOIN "Space" AS s ON s."id" = r."spaceId" AND s."revisionId" = r."id"
  JOIN added ON added."revisionId" = r."id"
  JOIN "PageVersion" AS pv ON pv."id" = added."versionId" AND pv."type" = 'document'
  ON CONFLICT ("spaceId", "pageId") DO UPDATE
    SET "versionId" = EXCLUDED."versionId", "searchVector" = EXCLUDED."searchVector",
      "updatedAt" = EXCLUDED."updatedAt";
  RETURN NULL;
END
$$;
