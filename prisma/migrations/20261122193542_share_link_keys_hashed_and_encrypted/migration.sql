/*
  Warnings:

  - You are about to drop the column `key` on the `ShareLink` table. All the data in the column will be lost.
  - A unique constraint covering the columns `[keyHash]` on the table `ShareLink` will be added. If there are existing duplicate values, this will fail.
  - Added the required column `keyEncrypted` to the `ShareLink` table without a default value. This is not possible if the table is not empty.
  - Added the required column `keyHash` to the `ShareLink` table without a default value. This is not possible if the table is not empty.

*/
-- DropIndex
DROP INDEX "ShareLink_key_key";

-- AlterTable
ALTER TABLE "ShareLink" DROP COLUMN "key",
ADD COLUMN     "keyEncrypted" TEXT NOT NULL,
ADD COLUMN     "keyHash" TEXT NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "ShareLink_keyHash_key" ON "ShareLink"("keyHash");
