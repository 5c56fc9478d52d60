-- Each webhook delivery attempt is a pg-boss job (lib/webhooks/webhook-queue.ts), which holds the claim a worker
-- has on it: the delivery row is its log, and holds no lock.
ALTER TABLE "webhook_delivery" DROP COLUMN "lockedUntil";
