-- Stored response bodies are now encrypted with SECRETS_KEY, which SQL does not have: the records kept in clear
-- are dropped with their column (a retry of a request sent before this migration runs again).
DELETE FROM "IdempotencyRecord";

-- AlterTable
ALTER TABLE "IdempotencyRecord" DROP COLUMN "body",
ADD COLUMN     "bodyEncrypted" TEXT;
