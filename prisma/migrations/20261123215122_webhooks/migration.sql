-- CreateTable
CREATE TABLE "webhook" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" TEXT[],
    "secretEncrypted" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "lastAttemptAt" TIMESTAMP(3),
    "lastStatusCode" INTEGER,
    "lastResponse" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_event" (
    "id" BIGSERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_projectId_idx" ON "webhook"("projectId");

-- CreateIndex
CREATE INDEX "webhook_delivery_status_nextAttemptAt_idx" ON "webhook_delivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "webhook_delivery_webhookId_createdAt_idx" ON "webhook_delivery"("webhookId", "createdAt");

-- AddForeignKey
ALTER TABLE "webhook" ADD CONSTRAINT "webhook_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Webhook events, written by the database in the transaction that causes them, so that every code path that
-- finishes a run (the engine's group commit, the batch runner, a retry), imports a label set or completes a
-- queue emits one, and an event is never written for a change that rolled back. Only projects with an
-- enabled webhook for the event get a row; the webhook worker (lib/webhooks/deliver.ts) fans rows out to
-- deliveries and deletes them.
CREATE FUNCTION webhook_emit(project_id TEXT, event_name TEXT, subject_id TEXT) RETURNS VOID AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook w WHERE w."projectId" = project_id AND w.enabled AND event_name = ANY (w.events)) THEN
    INSERT INTO webhook_event ("projectId", event, "subjectId") VALUES (project_id, event_name, subject_id);
  END IF;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION webhook_judge_run_status() RETURNS TRIGGER AS $$
BEGIN
  IF NEW.status = 'done' THEN
    PERFORM webhook_emit(NEW."projectId", 'run.finished', NEW.id);
  ELSIF NEW.status = 'failed' THEN
    PERFORM webhook_emit(NEW."projectId", 'run.failed', NEW.id);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER webhook_judge_run_status AFTER UPDATE OF status ON judge_run
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('done', 'failed'))
  EXECUTE FUNCTION webhook_judge_run_status();

CREATE FUNCTION webhook_label_set_imported() RETURNS TRIGGER AS $$
BEGIN
  PERFORM webhook_emit(NEW."projectId", 'label_set.imported', NEW.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER webhook_label_set_imported AFTER INSERT ON label_set
  FOR EACH ROW EXECUTE FUNCTION webhook_label_set_imported();

-- A queue is finished when its last item gets its last reviewer. Two reviewers finishing the last two items at
-- once would each still see the other's item open (neither transaction sees the other's uncommitted count), so
-- the queue row is locked first: the second waits for the first to commit, then its next query sees both done.
CREATE FUNCTION webhook_queue_item_done() RETURNS TRIGGER AS $$
DECLARE
  per_item INTEGER;
  queue_row review_queue%ROWTYPE;
BEGIN
  SELECT "reviewersPerItem" INTO per_item FROM review_queue WHERE id = NEW."queueId";
  IF NEW."doneCount" < per_item OR OLD."doneCount" >= per_item THEN
    RETURN NULL;
  END IF;
  SELECT * INTO queue_row FROM review_queue WHERE id = NEW."queueId" FOR UPDATE;
  IF NOT EXISTS (SELECT 1 FROM review_queue_item i WHERE i."queueId" = NEW."queueId" AND i."doneCount" < queue_row."reviewersPerItem") THEN
    PERFORM webhook_emit(queue_row."projectId", 'queue.finished', queue_row.id);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER webhook_queue_item_done AFTER UPDATE OF "doneCount" ON review_queue_item
  FOR EACH ROW WHEN (NEW."doneCount" > OLD."doneCount")
  EXECUTE FUNCTION webhook_queue_item_done();
