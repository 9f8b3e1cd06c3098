-- CreateIndex
CREATE INDEX "ChangeRequest_spaceId_status_updatedAt_id_idx" ON "ChangeRequest"("spaceId", "status", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "ChangeRequest_spaceId_status_number_id_idx" ON "ChangeRequest"("spaceId", "status", "number", "id");

-- CreateIndex
CREATE INDEX "OpenAPISpec_organizationId_updatedAt_id_idx" ON "OpenAPISpec"("organizationId", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "OpenAPISpec_organizationId_slug_id_idx" ON "OpenAPISpec"("organizationId", "slug", "id");

-- CreateIndex
CREATE INDEX "Organization_updatedAt_id_idx" ON "Organization"("updatedAt", "id");

-- CreateIndex
CREATE INDEX "Organization_title_id_idx" ON "Organization"("title", "id");

-- CreateIndex
CREATE INDEX "Site_organizationId_updatedAt_id_idx" ON "Site"("organizationId", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Site_organizationId_title_id_idx" ON "Site"("organizationId", "title", "id");

-- CreateIndex
CREATE INDEX "SiteSection_siteId_title_id_idx" ON "SiteSection"("siteId", "title", "id");

-- CreateIndex
CREATE INDEX "SiteSection_siteId_createdAt_id_idx" ON "SiteSection"("siteId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "SiteSpace_siteId_createdAt_id_idx" ON "SiteSpace"("siteId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "SiteSpace_siteId_path_id_idx" ON "SiteSpace"("siteId", "path", "id");

-- CreateIndex
CREATE INDEX "Space_organizationId_deletedAt_updatedAt_id_idx" ON "Space"("organizationId", "deletedAt", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Space_organizationId_deletedAt_title_id_idx" ON "Space"("organizationId", "deletedAt", "title", "id");

-- CreateIndex
CREATE INDEX "Space_organizationId_deletedAt_position_id_idx" ON "Space"("organizationId", "deletedAt", "position", "id");

-- CreateIndex
CREATE INDEX "Team_organizationId_createdAt_id_idx" ON "Team"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Team_organizationId_title_id_idx" ON "Team"("organizationId", "title", "id");

-- CreateIndex
CREATE INDEX "Translation_organizationId_updatedAt_id_idx" ON "Translation"("organizationId", "updatedAt", "id");
