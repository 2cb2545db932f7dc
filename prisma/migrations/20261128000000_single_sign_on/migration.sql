-- Single sign-on (issue 22): the portal as the network's OpenID Connect provider.
-- Every portal user gets an immutable subject id (existing users too: the default fills them).
ALTER TABLE "PortalUser" ADD COLUMN "subjectId" UUID NOT NULL DEFAULT gen_random_uuid();
CREATE UNIQUE INDEX "PortalUser_subjectId_key" ON "PortalUser"("subjectId");

CREATE TABLE "SsoClient" (
    "clientId" VARCHAR(128) NOT NULL,
    "systemAccessId" INTEGER NOT NULL,
    "isPublic" BOOLEAN NOT NULL DEFAULT false,
    "secretHash" VARCHAR(256),
    "redirectUris" TEXT[],
    "postLogoutRedirectUris" TEXT[],
    "backchannelLogoutUri" VARCHAR(2048),
    "initiateLoginUri" VARCHAR(2048),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "SsoClient_pkey" PRIMARY KEY ("clientId")
);
CREATE UNIQUE INDEX "SsoClient_systemAccessId_key" ON "SsoClient"("systemAccessId");
ALTER TABLE "SsoClient" ADD CONSTRAINT "SsoClient_systemAccessId_fkey" FOREIGN KEY ("systemAccessId") REFERENCES "SystemAccess"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "OidcPayload" (
    "kind" VARCHAR(64) NOT NULL,
    "id" VARCHAR(256) NOT NULL,
    "payload" JSONB NOT NULL,
    "grantId" VARCHAR(256),
    "uid" VARCHAR(256),
    "userCode" VARCHAR(256),
    "expiresAt" TIMESTAMP(3),
    "consumedAt" TIMESTAMP(3),
    CONSTRAINT "OidcPayload_pkey" PRIMARY KEY ("kind", "id")
);
CREATE INDEX "OidcPayload_grantId_idx" ON "OidcPayload"("grantId");
CREATE INDEX "OidcPayload_uid_idx" ON "OidcPayload"("uid");
CREATE INDEX "OidcPayload_expiresAt_idx" ON "OidcPayload"("expiresAt");

CREATE TABLE "OidcSigningKey" (
    "kid" VARCHAR(64) NOT NULL,
    "publicJwk" JSONB NOT NULL,
    "privateJwk" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMP(3),
    "retireAfter" TIMESTAMP(3),
    CONSTRAINT "OidcSigningKey_pkey" PRIMARY KEY ("kid")
);
