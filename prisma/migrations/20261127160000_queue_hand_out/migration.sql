-- A review queue's hand-out order, chosen by its owner: "overlap" (the first item by position a reviewer has not
-- reviewed that still needs a reviewer) or "coverage" (the fewest reviews first, then position).
-- AlterTable
ALTER TABLE "review_queue" ADD COLUMN     "handOut" TEXT NOT NULL DEFAULT 'overlap';
