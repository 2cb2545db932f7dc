-- Issue 24 (many processes, one truth): state every API process must agree on lives here, not in memory.

-- The rate limits' counters, in rate-limiter-flexible's PostgreSQL shape (key, points, expire in ms).
CREATE TABLE "RateLimit" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,
    CONSTRAINT "RateLimit_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "RateLimit_expire_idx" ON "RateLimit"("expire");

-- The captcha's used solutions until their challenge expires (replay protection across processes).
CREATE TABLE "CaptchaUsedSolution" (
    "signature" VARCHAR(128) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "CaptchaUsedSolution_pkey" PRIMARY KEY ("signature")
);
CREATE INDEX "CaptchaUsedSolution_expiresAt_idx" ON "CaptchaUsedSolution"("expiresAt");

-- Secrets the processes share when configuration sets none (made once, at random, by the first process).
CREATE TABLE "SharedSecret" (
    "name" VARCHAR(64) NOT NULL,
    "value" VARCHAR(256) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SharedSecret_pkey" PRIMARY KEY ("name")
);
