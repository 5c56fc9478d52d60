-- Signed clip URLs (lib/judge/clip-urls.ts) serve their clip once: each fetch records the URL's nonce, and a second
-- fetch of the same URL finds it taken. Rows past their URL's expiry are swept by later fetches.
CREATE TABLE "clip_url_fetch" (
    "nonce" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "fetchedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "clip_url_fetch_pkey" PRIMARY KEY ("nonce")
);

CREATE INDEX "clip_url_fetch_expiresAt_idx" ON "clip_url_fetch"("expiresAt");
