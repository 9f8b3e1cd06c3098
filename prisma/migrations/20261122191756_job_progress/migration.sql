-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "organizationId" TEXT,
ADD COLUMN     "progressDone" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "progressMessage" TEXT,
ADD COLUMN     "progressTotal" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Job_organizationId_idx" ON "Job"("organizationId");
