-- AlterTable
ALTER TABLE "Space" ADD COLUMN     "changeRequestNumber" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "Revision" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "parents" TEXT[],
    "type" TEXT NOT NULL DEFAULT 'edits',
    "changeRequestId" TEXT,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "reusableContents" JSONB NOT NULL DEFAULT '[]',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Revision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PageVersion" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'document',
    "title" TEXT NOT NULL,
    "emoji" TEXT,
    "slug" TEXT NOT NULL,
    "description" TEXT,
    "markdown" TEXT NOT NULL DEFAULT '',
    "layout" JSONB,
    "cover" JSONB,
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "noIndex" BOOLEAN NOT NULL DEFAULT false,
    "noRobotsIndex" BOOLEAN NOT NULL DEFAULT false,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "href" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PageVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RevisionPage" (
    "revisionId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "parentPageId" TEXT,
    "position" INTEGER NOT NULL,

    CONSTRAINT "RevisionPage_pkey" PRIMARY KEY ("revisionId","pageId")
);

-- CreateTable
CREATE TABLE "FileBlob" (
    "hash" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileBlob_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "RevisionFile" (
    "revisionId" TEXT NOT NULL,
    "fileId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "blobHash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,

    CONSTRAINT "RevisionFile_pkey" PRIMARY KEY ("revisionId","fileId")
);

-- CreateTable
CREATE TABLE "ContentExport" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL,
    "pageId" TEXT,
    "onlyPage" BOOLEAN NOT NULL DEFAULT false,
    "title" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContentExport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangeRequest" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "subject" TEXT NOT NULL DEFAULT '',
    "description" JSONB,
    "createdById" TEXT,
    "revisionId" TEXT NOT NULL,
    "revisionInitial" TEXT NOT NULL,
    "revisionMergedAncestor" TEXT,
    "revisionMerged" TEXT,
    "comments" INTEGER NOT NULL DEFAULT 0,
    "mergedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChangeRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangeRequestContributor" (
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeRequestContributor_pkey" PRIMARY KEY ("changeRequestId","userId")
);

-- CreateTable
CREATE TABLE "ChangeRequestReviewer" (
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "requestedById" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeRequestReviewer_pkey" PRIMARY KEY ("changeRequestId","userId")
);

-- CreateTable
CREATE TABLE "ChangeRequestReview" (
    "id" TEXT NOT NULL,
    "changeRequestId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "requestedById" TEXT,
    "status" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChangeRequestReview_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Revision_spaceId_createdAt_idx" ON "Revision"("spaceId", "createdAt");

-- CreateIndex
CREATE INDEX "PageVersion_spaceId_pageId_idx" ON "PageVersion"("spaceId", "pageId");

-- CreateIndex
CREATE INDEX "RevisionPage_versionId_idx" ON "RevisionPage"("versionId");

-- CreateIndex
CREATE INDEX "RevisionFile_revisionId_name_fileId_idx" ON "RevisionFile"("revisionId", "name", "fileId");

-- CreateIndex
CREATE INDEX "RevisionFile_blobHash_idx" ON "RevisionFile"("blobHash");

-- CreateIndex
CREATE UNIQUE INDEX "ContentExport_key_key" ON "ContentExport"("key");

-- CreateIndex
CREATE INDEX "ContentExport_expiresAt_idx" ON "ContentExport"("expiresAt");

-- CreateIndex
CREATE INDEX "ChangeRequest_spaceId_status_createdAt_id_idx" ON "ChangeRequest"("spaceId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ChangeRequest_organizationId_status_createdAt_id_idx" ON "ChangeRequest"("organizationId", "status", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ChangeRequest_spaceId_number_key" ON "ChangeRequest"("spaceId", "number");

-- CreateIndex
CREATE INDEX "ChangeRequestContributor_userId_idx" ON "ChangeRequestContributor"("userId");

-- CreateIndex
CREATE INDEX "ChangeRequestReviewer_userId_idx" ON "ChangeRequestReviewer"("userId");

-- CreateIndex
CREATE INDEX "ChangeRequestReview_changeRequestId_createdAt_id_idx" ON "ChangeRequestReview"("changeRequestId", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "Revision" ADD CONSTRAINT "Revision_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PageVersion" ADD CONSTRAINT "PageVersion_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RevisionPage" ADD CONSTRAINT "RevisionPage_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "Revision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RevisionPage" ADD CONSTRAINT "RevisionPage_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "PageVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RevisionFile" ADD CONSTRAINT "RevisionFile_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "Revision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RevisionFile" ADD CONSTRAINT "RevisionFile_blobHash_fkey" FOREIGN KEY ("blobHash") REFERENCES "FileBlob"("hash") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContentExport" ADD CONSTRAINT "ContentExport_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequest" ADD CONSTRAINT "ChangeRequest_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequest" ADD CONSTRAINT "ChangeRequest_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestContributor" ADD CONSTRAINT "ChangeRequestContributor_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestContributor" ADD CONSTRAINT "ChangeRequestContributor_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReviewer" ADD CONSTRAINT "ChangeRequestReviewer_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReviewer" ADD CONSTRAINT "ChangeRequestReviewer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Spaces created before content existed point at a revision id without a row: give each an empty revision.
INSERT INTO "Revision" ("id", "spaceId", "parents", "type", "createdAt")
SELECT "revisionId", "id", ARRAY[]::TEXT[], 'edits', "createdAt" FROM "Space"
ON CONFLICT DO NOTHING;
