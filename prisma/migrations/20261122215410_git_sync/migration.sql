-- AlterTable
ALTER TABLE "PageVersion" ADD COLUMN     "git" JSONB;

-- AlterTable
ALTER TABLE "Revision" ADD COLUMN     "git" JSONB;

-- CreateTable
CREATE TABLE "GitSync" (
    "spaceId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "projectDirectory" TEXT NOT NULL DEFAULT '',
    "provider" TEXT,
    "treeUrl" TEXT,
    "commitUrl" TEXT,
    "commitOid" TEXT,
    "appliedTimestamp" TIMESTAMP(3),
    "appliedJobId" TEXT,
    "operationDirection" TEXT NOT NULL,
    "operationState" TEXT NOT NULL,
    "operationError" TEXT,
    "operationSkipped" BOOLEAN NOT NULL DEFAULT false,
    "operationRevisionId" TEXT,
    "operationStartedAt" TIMESTAMP(3) NOT NULL,
    "operationCompletedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GitSync_pkey" PRIMARY KEY ("spaceId")
);

-- AddForeignKey
ALTER TABLE "GitSync" ADD CONSTRAINT "GitSync_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;
