-- AlterTable
ALTER TABLE "PageVersion" ADD COLUMN     "linksExtracted" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "PageVersionLink" (
    "pageVersionId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "target" TEXT,
    "anchor" TEXT,

    CONSTRAINT "PageVersionLink_pkey" PRIMARY KEY ("pageVersionId","ordinal")
);

-- AddForeignKey
ALTER TABLE "PageVersionLink" ADD CONSTRAINT "PageVersionLink_pageVersionId_fkey" FOREIGN KEY ("pageVersionId") REFERENCES "PageVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;
