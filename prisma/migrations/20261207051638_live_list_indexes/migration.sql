-- DropIndex
DROP INDEX "Space_organizationId_deletedAt_createdAt_id_idx";

-- DropIndex
DROP INDEX "Space_organizationId_deletedAt_position_id_idx";

-- DropIndex
DROP INDEX "Space_organizationId_deletedAt_title_id_idx";

-- DropIndex
DROP INDEX "Space_organizationId_deletedAt_updatedAt_id_idx";

-- CreateIndex
CREATE INDEX "Comment_space_postedAt_idx" ON "Comment"("spaceId", "postedAt", "id") WHERE ("changeRequestId" IS NULL);

-- CreateIndex
CREATE INDEX "Space_live_createdAt_idx" ON "Space"("organizationId", "createdAt", "id") WHERE ("deletedAt" IS NULL);

-- CreateIndex
CREATE INDEX "Space_live_updatedAt_idx" ON "Space"("organizationId", "updatedAt", "id") WHERE ("deletedAt" IS NULL);

-- CreateIndex
CREATE INDEX "Space_live_title_idx" ON "Space"("organizationId", "title", "id") WHERE ("deletedAt" IS NULL);

-- CreateIndex
CREATE INDEX "Space_live_position_idx" ON "Space"("organizationId", "position", "id") WHERE ("deletedAt" IS NULL);

-- CreateIndex
CREATE INDEX "TeamMember_userId_teamId_idx" ON "TeamMember"("userId", "teamId");
