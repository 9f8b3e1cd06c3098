-- AlterTable
ALTER TABLE "PageVersion" ADD COLUMN     "computed" JSONB,
ADD COLUMN     "computedSeed" TEXT;
