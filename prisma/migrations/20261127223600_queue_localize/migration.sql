-- Queues that localise: reviewers mark where each label they find present is (lib/queues/localize.ts).
ALTER TABLE "review_queue" ADD COLUMN "localize" BOOLEAN NOT NULL DEFAULT false;
