-- Dashboard resources (issue 23, 000 §6 and §9, 001 §6 and §8): resource categories (a tree), dashboard items
-- tied to portal roles, and the files they use, content-addressed by SHA-256 and stored as 1 MiB chunks.
-- CreateEnum
CREATE TYPE "DashboardItemKind" AS ENUM ('LINK', 'DOWNLOAD', 'ELEARNING');

-- CreateTable
CREATE TABLE "ResourceCategory" (
    "id" SERIAL NOT NULL,
    "name" VARCHAR(128) NOT NULL,
    "parentId" INTEGER,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "headless" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ResourceCategory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DashboardItem" (
    "id" SERIAL NOT NULL,
    "kind" "DashboardItemKind" NOT NULL,
    "title" VARCHAR(256) NOT NULL,
    "description" VARCHAR(2048) NOT NULL DEFAULT '',
    "categoryId" INTEGER NOT NULL,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "url" VARCHAR(2048),
    "fileSha256" CHAR(64),
    "fileName" VARCHAR(255),
    "fileSize" BIGINT,
    "fileContentType" VARCHAR(255),
    "entryPoint" VARCHAR(1024),
    "imageSha256" CHAR(64),
    "imageContentType" VARCHAR(100),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DashboardItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DashboardItemPortalRole" (
    "itemId" INTEGER NOT NULL,
    "portalRoleId" INTEGER NOT NULL,

    CONSTRAINT "DashboardItemPortalRole_pkey" PRIMARY KEY ("itemId","portalRoleId")
);

-- CreateTable
CREATE TABLE "ElearningFile" (
    "itemId" INTEGER NOT NULL,
    "path" VARCHAR(1024) NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "size" INTEGER NOT NULL,
    "contentType" VARCHAR(100) NOT NULL,

    CONSTRAINT "ElearningFile_pkey" PRIMARY KEY ("itemId","path")
);

-- CreateTable
CREATE TABLE "StoredFile" (
    "sha256" CHAR(64) NOT NULL,
    "size" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StoredFile_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "StoredFileChunk" (
    "sha256" CHAR(64) NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "StoredFileChunk_pkey" PRIMARY KEY ("sha256","seq")
);

-- CreateIndex
CREATE INDEX "ResourceCategory_parentId_idx" ON "ResourceCategory"("parentId");

-- CreateIndex
CREATE INDEX "DashboardItem_categoryId_idx" ON "DashboardItem"("categoryId");

-- CreateIndex
CREATE INDEX "DashboardItem_fileSha256_idx" ON "DashboardItem"("fileSha256");

-- CreateIndex
CREATE INDEX "DashboardItem_imageSha256_idx" ON "DashboardItem"("imageSha256");

-- CreateIndex
CREATE INDEX "DashboardItemPortalRole_portalRoleId_idx" ON "DashboardItemPortalRole"("portalRoleId");

-- CreateIndex
CREATE INDEX "ElearningFile_sha256_idx" ON "ElearningFile"("sha256");

-- AddForeignKey
ALTER TABLE "ResourceCategory" ADD CONSTRAINT "ResourceCategory_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "ResourceCategory"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DashboardItem" ADD CONSTRAINT "DashboardItem_categoryId_fkey" FOREIGN KEY ("categoryId") REFERENCES "ResourceCategory"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DashboardItem" ADD CONSTRAINT "DashboardItem_fileSha256_fkey" FOREIGN KEY ("fileSha256") REFERENCES "StoredFile"("sha256") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DashboardItem" ADD CONSTRAINT "DashboardItem_imageSha256_fkey" FOREIGN KEY ("imageSha256") REFERENCES "StoredFile"("sha256") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DashboardItemPortalRole" ADD CONSTRAINT "DashboardItemPortalRole_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "DashboardItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DashboardItemPortalRole" ADD CONSTRAINT "DashboardItemPortalRole_portalRoleId_fkey" FOREIGN KEY ("portalRoleId") REFERENCES "PortalRole"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ElearningFile" ADD CONSTRAINT "ElearningFile_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "DashboardItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ElearningFile" ADD CONSTRAINT "ElearningFile_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "StoredFile"("sha256") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StoredFileChunk" ADD CONSTRAINT "StoredFileChunk_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "StoredFile"("sha256") ON DELETE CASCADE ON UPDATE CASCADE;


-- Chunks are mostly compressed already (zip, pdf, images): stored out of line without another compression pass.
ALTER TABLE "StoredFileChunk" ALTER COLUMN "data" SET STORAGE EXTERNAL;

-- The categories shown without a heading, first on the dashboard (000 §9).
INSERT INTO "ResourceCategory" ("name", "sort", "active", "headless") VALUES
    ('Links', 0, true, true),
    ('Downloads', 1, true, true),
    ('eLearnings', 2, true, true);
