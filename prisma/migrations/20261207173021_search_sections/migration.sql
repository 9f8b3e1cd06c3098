-- CreateTable: the sections of a document version, written with the version (src/modules/content/revision.service.ts).
-- The vector is a stored generated column, as on "PageVersion": computed once per section when it is written.
CREATE TABLE "PageVersionSection" (
    "versionId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "anchor" TEXT,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "searchVector" tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english'::regconfig, "title"), 'A') ||
      setweight(to_tsvector('english'::regconfig, "body"), 'C')
    ) STORED,

    CONSTRAINT "PageVersionSection_pkey" PRIMARY KEY ("versionId","ordinal")
);

-- AddForeignKey
ALTER TABLE "PageVersionSection" ADD CONSTRAINT "PageVersionSection_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "PageVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;
