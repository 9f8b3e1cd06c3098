-- CreateIndex
CREATE INDEX "RevisionPage_revisionId_parentPageId_idx" ON "RevisionPage"("revisionId", "parentPageId");
