-- Pairwise comparison (lib/pairwise): pair sets, their pairs, every rater's verdicts with history, reviewers'
-- claims with the side each was shown, and a pairwise judge run's answers in both orders.
ALTER TABLE "judge_run" ADD COLUMN "pairSetId" TEXT;

CREATE TABLE "pair_set" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "aspects" JSONB NOT NULL,
    "origin" JSONB NOT NULL,
    "crossPrompt" BOOLEAN NOT NULL DEFAULT false,
    "blind" BOOLEAN NOT NULL DEFAULT true,
    "reviewersPerPair" INTEGER NOT NULL DEFAULT 1,
    "assigneeIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "guidelines" TEXT NOT NULL DEFAULT '',
    "votesPerPromptCap" INTEGER,
    "pairCount" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "pair_set_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "pair" (
    "id" TEXT NOT NULL,
    "pairSetId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "pairKey" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "videoAId" TEXT,
    "videoBId" TEXT,
    "generatorA" TEXT NOT NULL,
    "generatorB" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "nameA" TEXT NOT NULL,
    "nameB" TEXT NOT NULL,
    "honeypot" JSONB,
    "doneCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pair_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "pair_verdict" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "pairSetId" TEXT NOT NULL,
    "pairId" TEXT NOT NULL,
    "aspect" TEXT NOT NULL,
    "raterKind" TEXT NOT NULL,
    "raterId" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "strength" INTEGER NOT NULL DEFAULT 1,
    "aShownOn" TEXT,
    "msToVerdict" INTEGER,
    "runId" TEXT,
    "labelSetId" TEXT,
    "note" TEXT NOT NULL DEFAULT '',
    "withdrawn" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "pair_verdict_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "pair_verdict_history" (
    "id" TEXT NOT NULL,
    "verdictId" TEXT NOT NULL,
    "changedBy" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "before" JSONB,
    "after" JSONB NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pair_verdict_history_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "pair_assignment" (
    "pairId" TEXT NOT NULL,
    "pairSetId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "status" "QueueAssignmentStatus" NOT NULL DEFAULT 'claimed',
    "aShownOn" TEXT NOT NULL,
    "claimedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "doneAt" TIMESTAMP(3),

    CONSTRAINT "pair_assignment_pkey" PRIMARY KEY ("pairId","reviewerId")
);

CREATE TABLE "pair_judge_answer" (
    "runId" TEXT NOT NULL,
    "pairId" TEXT NOT NULL,
    "aspect" TEXT NOT NULL,
    "order" TEXT NOT NULL,
    "verdict" TEXT,
    "strength" INTEGER,
    "answer" TEXT NOT NULL,
    "callId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pair_judge_answer_pkey" PRIMARY KEY ("runId","pairId","aspect","order")
);

CREATE INDEX "judge_run_pairSetId_idx" ON "judge_run"("pairSetId");
CREATE INDEX "pair_set_projectId_createdAt_idx" ON "pair_set"("projectId", "createdAt");
CREATE UNIQUE INDEX "pair_set_projectId_name_key" ON "pair_set"("projectId", "name");
CREATE INDEX "pair_pairSetId_doneCount_position_idx" ON "pair"("pairSetId", "doneCount", "position");
CREATE INDEX "pair_videoAId_idx" ON "pair"("videoAId");
CREATE INDEX "pair_videoBId_idx" ON "pair"("videoBId");
CREATE UNIQUE INDEX "pair_pairSetId_pairKey_key" ON "pair"("pairSetId", "pairKey");
CREATE UNIQUE INDEX "pair_pairSetId_position_key" ON "pair"("pairSetId", "position");
CREATE INDEX "pair_verdict_pairSetId_aspect_idx" ON "pair_verdict"("pairSetId", "aspect");
CREATE INDEX "pair_verdict_projectId_raterId_idx" ON "pair_verdict"("projectId", "raterId");
CREATE INDEX "pair_verdict_runId_idx" ON "pair_verdict"("runId");
CREATE INDEX "pair_verdict_labelSetId_idx" ON "pair_verdict"("labelSetId");
CREATE UNIQUE INDEX "pair_verdict_pairId_aspect_raterId_key" ON "pair_verdict"("pairId", "aspect", "raterId");
CREATE INDEX "pair_verdict_history_verdictId_version_idx" ON "pair_verdict_history"("verdictId", "version");
CREATE INDEX "pair_assignment_pairSetId_reviewerId_status_idx" ON "pair_assignment"("pairSetId", "reviewerId", "status");
CREATE INDEX "pair_judge_answer_pairId_idx" ON "pair_judge_answer"("pairId");

ALTER TABLE "judge_run" ADD CONSTRAINT "judge_run_pairSetId_fkey" FOREIGN KEY ("pairSetId") REFERENCES "pair_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "pair_set" ADD CONSTRAINT "pair_set_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "pair" ADD CONSTRAINT "pair_pairSetId_fkey" FOREIGN KEY ("pairSetId") REFERENCES "pair_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "pair" ADD CONSTRAINT "pair_videoAId_fkey" FOREIGN KEY ("videoAId") REFERENCES "video"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "pair" ADD CONSTRAINT "pair_videoBId_fkey" FOREIGN KEY ("videoBId") REFERENCES "video"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "pair_verdict" ADD CONSTRAINT "pair_verdict_pairId_fkey" FOREIGN KEY ("pairId") REFERENCES "pair"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "pair_verdict" ADD CONSTRAINT "pair_verdict_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "pair_verdict" ADD CONSTRAINT "pair_verdict_labelSetId_fkey" FOREIGN KEY ("labelSetId") REFERENCES "label_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "pair_verdict_history" ADD CONSTRAINT "pair_verdict_history_verdictId_fkey" FOREIGN KEY ("verdictId") REFERENCES "pair_verdict"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "pair_assignment" ADD CONSTRAINT "pair_assignment_pairId_fkey" FOREIGN KEY ("pairId") REFERENCES "pair"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "pair_judge_answer" ADD CONSTRAINT "pair_judge_answer_runId_fkey" FOREIGN KEY ("runId") REFERENCES "judge_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "pair_judge_answer" ADD CONSTRAINT "pair_judge_answer_pairId_fkey" FOREIGN KEY ("pairId") REFERENCES "pair"("id") ON DELETE CASCADE ON UPDATE CASCADE;
