-- CreateTable
CREATE TABLE "Translation" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "sourceSpaceId" TEXT NOT NULL,
    "sourceLanguage" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "instructions" JSONB,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "failureReason" TEXT,
    "resultSpaceId" TEXT,
    "resultRevisionId" TEXT,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "totalWords" INTEGER NOT NULL DEFAULT 0,
    "totalDuration" INTEGER NOT NULL DEFAULT 0,
    "latestRunDuration" INTEGER NOT NULL DEFAULT 0,
    "latestPages" INTEGER NOT NULL DEFAULT 0,
    "latestWords" INTEGER NOT NULL DEFAULT 0,
    "translatedPageIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Translation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Translation_organizationId_createdAt_id_idx" ON "Translation"("organizationId", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "Translation" ADD CONSTRAINT "Translation_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
