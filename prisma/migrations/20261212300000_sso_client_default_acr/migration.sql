-- The sign-in level a study system asks for when its request names none (issue 37, Configure, Systems):
-- the client's `default_acr_values`, or null for nothing beyond the password.

-- AlterTable
ALTER TABLE "SsoClient" ADD COLUMN "defaultAcr" VARCHAR(64);
