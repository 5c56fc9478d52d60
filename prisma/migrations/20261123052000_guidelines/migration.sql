-- Guidelines (Markdown) for a project's reviewers and for each review queue's, shown on the review screen.
ALTER TABLE "project" ADD COLUMN "guidelines" TEXT NOT NULL DEFAULT '';

ALTER TABLE "review_queue" ADD COLUMN "guidelines" TEXT NOT NULL DEFAULT '';
