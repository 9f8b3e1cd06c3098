-- Visitor-auth keys are now stored encrypted with SECRETS_KEY, which SQL does not have: the server encrypts the
-- keys stored in clear at its next start (encryptStoredVisitorAuthKeys) and clears "visitorAuthKey".
-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "visitorAuthKeyEncrypted" TEXT,
ALTER COLUMN "visitorAuthKey" DROP NOT NULL;
