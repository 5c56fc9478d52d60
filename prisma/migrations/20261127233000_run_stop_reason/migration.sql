-- A run stopped by its budget says so (lib/judge/run-budget.ts): raising the budget resumes it.
ALTER TABLE "judge_run" ADD COLUMN "stopReason" TEXT;
