-- A scope's last span agreement report, stored so a process without it in memory (after a restart, or another web
-- process) reads it and matches only the videos written since its revision (lib/spans/agreement/span-agreement-snapshot.ts).
CREATE TABLE "span_agreement_snapshot" (
    "projectId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "revision" BIGINT NOT NULL,
    "format" TEXT NOT NULL,
    "payload" BYTEA NOT NULL,
    "written" BIGSERIAL NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "span_agreement_snapshot_pkey" PRIMARY KEY ("projectId","scope")
);

ALTER TABLE "span_agreement_snapshot" ADD CONSTRAINT "span_agreement_snapshot_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
