-- AlterTable: a stored generated column, so every writer of PageVersion gets it without knowing about search.
-- Weights rank a match in the title (A) above the description (B) and the body (C).
ALTER TABLE "PageVersion" ADD COLUMN     "searchVector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, "title"), 'A') ||
  setweight(to_tsvector('english'::regconfig, coalesce("description", '')), 'B') ||
  setweight(to_tsvector('english'::regconfig, "markdown"), 'C')
) STORED;

-- CreateIndex
CREATE INDEX "PageVersion_searchVector_idx" ON "PageVersion" USING GIN ("searchVector");
