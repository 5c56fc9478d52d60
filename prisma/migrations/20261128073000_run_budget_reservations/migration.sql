-- A run's budget holds against reservations made before each call is sent (lib/judge/run-budget.ts).
ALTER TABLE "judge_run" ADD COLUMN "committedUsd" DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE "judge_run" ADD COLUMN "callsInFlight" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "judge_run" ADD COLUMN "callsInFlightAtStop" INTEGER;

-- A run with a budget starts from what its calls have cost so far.
UPDATE "judge_run" r SET "committedUsd" = coalesce((SELECT sum(c."costUsd") FROM "llm_call" c WHERE c."runId" = r.id), 0)
WHERE r."budgetUsd" IS NOT NULL;
