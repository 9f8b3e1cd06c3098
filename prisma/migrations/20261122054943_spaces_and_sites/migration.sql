-- CreateTable
CREATE TABLE "Collection" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "parentId" TEXT,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "defaultLevel" "Role",
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Collection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Space" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "parentId" TEXT,
    "title" TEXT NOT NULL,
    "emoji" TEXT NOT NULL DEFAULT '',
    "visibility" TEXT NOT NULL DEFAULT 'private',
    "editMode" TEXT NOT NULL DEFAULT 'live',
    "defaultLevel" "Role",
    "language" TEXT,
    "mergeRules" JSONB NOT NULL DEFAULT '{"type":"inherit"}',
    "revisionId" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),
    "comments" INTEGER NOT NULL DEFAULT 0,
    "changeRequests" INTEGER NOT NULL DEFAULT 0,
    "changeRequestsOpen" INTEGER NOT NULL DEFAULT 0,
    "changeRequestsDraft" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Space_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SpacePermission" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "userId" TEXT,
    "teamId" TEXT,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SpacePermission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Site" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'basic',
    "visibility" TEXT NOT NULL DEFAULT 'public',
    "published" BOOLEAN NOT NULL DEFAULT false,
    "basename" TEXT,
    "hostname" TEXT,
    "proxy" TEXT,
    "adaptiveContentEnabled" BOOLEAN NOT NULL DEFAULT false,
    "agentsContext" TEXT NOT NULL DEFAULT 'included',
    "defaultSectionId" TEXT,
    "defaultSiteSpaceId" TEXT,
    "visitorAuthKey" TEXT NOT NULL,
    "adaptiveSchema" JSONB,
    "adaptiveSchemaUpdatedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Site_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SiteSectionGroup" (
    "id" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "parentGroupId" TEXT,
    "title" TEXT NOT NULL,
    "icon" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SiteSectionGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SiteSection" (
    "id" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "sectionGroupId" TEXT,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "path" TEXT NOT NULL,
    "condition" TEXT,
    "icon" TEXT,
    "defaultSiteSpaceId" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SiteSection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SiteSpace" (
    "id" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "sectionId" TEXT,
    "spaceId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "title" TEXT,
    "condition" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SiteSpace_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShareLink" (
    "id" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "name" TEXT,
    "key" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShareLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Collection_organizationId_parentId_position_idx" ON "Collection"("organizationId", "parentId", "position");

-- CreateIndex
CREATE INDEX "Space_organizationId_deletedAt_createdAt_id_idx" ON "Space"("organizationId", "deletedAt", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Space_organizationId_parentId_position_idx" ON "Space"("organizationId", "parentId", "position");

-- CreateIndex
CREATE INDEX "Space_deletedAt_idx" ON "Space"("deletedAt");

-- CreateIndex
CREATE INDEX "SpacePermission_userId_idx" ON "SpacePermission"("userId");

-- CreateIndex
CREATE INDEX "SpacePermission_teamId_idx" ON "SpacePermission"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "SpacePermission_spaceId_userId_key" ON "SpacePermission"("spaceId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "SpacePermission_spaceId_teamId_key" ON "SpacePermission"("spaceId", "teamId");

-- CreateIndex
CREATE UNIQUE INDEX "Site_hostname_key" ON "Site"("hostname");

-- CreateIndex
CREATE INDEX "Site_organizationId_createdAt_id_idx" ON "Site"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "SiteSectionGroup_siteId_position_idx" ON "SiteSectionGroup"("siteId", "position");

-- CreateIndex
CREATE INDEX "SiteSection_siteId_position_idx" ON "SiteSection"("siteId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "SiteSection_siteId_path_key" ON "SiteSection"("siteId", "path");

-- CreateIndex
CREATE INDEX "SiteSpace_siteId_sectionId_position_idx" ON "SiteSpace"("siteId", "sectionId", "position");

-- CreateIndex
CREATE INDEX "SiteSpace_sectionId_position_idx" ON "SiteSpace"("sectionId", "position");

-- CreateIndex
CREATE INDEX "SiteSpace_spaceId_idx" ON "SiteSpace"("spaceId");

-- CreateIndex
CREATE UNIQUE INDEX "ShareLink_key_key" ON "ShareLink"("key");

-- CreateIndex
CREATE INDEX "ShareLink_siteId_createdAt_id_idx" ON "ShareLink"("siteId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Job_status_runAt_idx" ON "Job"("status", "runAt");

-- AddForeignKey
ALTER TABLE "Collection" ADD CONSTRAINT "Collection_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Collection" ADD CONSTRAINT "Collection_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Collection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Space" ADD CONSTRAINT "Space_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Space" ADD CONSTRAINT "Space_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Collection"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpacePermission" ADD CONSTRAINT "SpacePermission_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpacePermission" ADD CONSTRAINT "SpacePermission_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpacePermission" ADD CONSTRAINT "SpacePermission_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Site" ADD CONSTRAINT "Site_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteSectionGroup" ADD CONSTRAINT "SiteSectionGroup_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteSectionGroup" ADD CONSTRAINT "SiteSectionGroup_parentGroupId_fkey" FOREIGN KEY ("parentGroupId") REFERENCES "SiteSectionGroup"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteSection" ADD CONSTRAINT "SiteSection_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteSection" ADD CONSTRAINT "SiteSection_sectionGroupId_fkey" FOREIGN KEY ("sectionGroupId") REFERENCES "SiteSectionGroup"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteSpace" ADD CONSTRAINT "SiteSpace_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteSpace" ADD CONSTRAINT "SiteSpace_sectionId_fkey" FOREIGN KEY ("sectionId") REFERENCES "SiteSection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteSpace" ADD CONSTRAINT "SiteSpace_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;
