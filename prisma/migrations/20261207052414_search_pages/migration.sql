-- CreateTable
CREATE TABLE "SearchPage" (
    "spaceId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "searchVector" tsvector,

    CONSTRAINT "SearchPage_pkey" PRIMARY KEY ("spaceId","pageId")
);

-- CreateIndex
CREATE INDEX "SearchPage_organizationId_idx" ON "SearchPage"("organizationId");

-- CreateIndex
CREATE INDEX "SearchPage_searchVector_idx" ON "SearchPage" USING GIN ("searchVector");

-- AddForeignKey
ALTER TABLE "SearchPage" ADD CONSTRAINT "SearchPage_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The pages of a space's current revision, in "SearchPage": a space whose revision (or organization) changes gets
-- the rows of its new revision's document pages; rows whose page and version are unchanged stay as they are, so a
-- change rewrites only the pages it changed (the GIN index is updated for those only).
CREATE FUNCTION "searchPagesFollowRevision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "SearchPage" AS sp
  WHERE sp."spaceId" = NEW."id"
    AND (sp."organizationId" <> NEW."organizationId" OR NOT EXISTS (
      SELECT 1 FROM "RevisionPage" AS rp
      JOIN "PageVersion" AS pv ON pv."id" = rp."versionId" AND pv."type" = 'document'
      WHERE rp."revisionId" = NEW."revisionId" AND rp."pageId" = sp."pageId"
    ));
  INSERT INTO "SearchPage" ("spaceId", "pageId", "organizationId", "versionId", "searchVector")
  SELECT NEW."id", rp."pageId", NEW."organizationId", rp."versionId", pv."searchVector"
  FROM "RevisionPage" AS rp
  JOIN "PageVersion" AS pv ON pv."id" = rp."versionId" AND pv."type" = 'document'
  WHERE rp."revisionId" = NEW."revisionId"
    AND NOT EXISTS (
      SELECT 1 FROM "SearchPage" AS sp
      WHERE sp."spaceId" = NEW."id" AND sp."pageId" = rp."pageId" AND sp."versionId" = rp."versionId"
    )
  ON CONFLICT ("spaceId", "pageId") DO UPDATE
    SET "versionId" = EXCLUDED."versionId", "searchVector" = EXCLUDED."searchVector";
  RETURN NULL;
END
$$;

CREATE TRIGGER "Space_searchPages_insert" AFTER INSERT ON "Space"
  FOR EACH ROW EXECUTE FUNCTION "searchPagesFollowRevision"();
CREATE TRIGGER "Space_searchPages_update" AFTER UPDATE OF "revisionId", "organizationId" ON "Space"
  FOR EACH ROW
  WHEN (OLD."revisionId" IS DISTINCT FROM NEW."revisionId" OR OLD."organizationId" IS DISTINCT FROM NEW."organizationId")
  EXECUTE FUNCTION "searchPagesFollowRevision"();

-- A space is created pointing at its first revision before that revision's pages are written: pages written into a
-- revision that is already a space's current one are added as they come.
CREATE FUNCTION "searchPagesOfCurrentRevision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SearchPage" ("spaceId", "pageId", "organizationId", "versionId", "searchVector")
  SELECT s."id", added."pageId", s."organizationId", added."versionId", pv."searchVector"
  FROM (SELECT DISTINCT "revisionId" FROM added) AS revision
  JOIN "Revision" AS r ON r."id" = revision."revisionId"
  JOIN "Space" AS s ON s."id" = r."spaceId" AND s."revisionId" = r."id"
  JOIN added ON added."revisionId" = r."id"
  JOIN "PageVersion" AS pv ON pv."id" = added."versionId" AND pv."type" = 'document'
  ON CONFLICT ("spaceId", "pageId") DO UPDATE
    SET "versionId" = EXCLUDED."versionId", "searchVector" = EXCLUDED."searchVector";
  RETURN NULL;
END
$$;

CREATE TRIGGER "RevisionPage_searchPages" AFTER INSERT ON "RevisionPage"
  REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "searchPagesOfCurrentRevision"();

-- The current pages of the spaces there are.
INSERT INTO "SearchPage" ("spaceId", "pageId", "organizationId", "versionId", "searchVector")
SELECT s."id", rp."pageId", s."organizationId", rp."versionId", pv."searchVector"
FROM "Space" AS s
JOIN "RevisionPage" AS rp ON rp."revisionId" = s."revisionId"
JOIN "PageVersion" AS pv ON pv."id" = rp."versionId" AND pv."type" = 'document';
