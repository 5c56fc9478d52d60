-- The model each answer named, beside the one asked for (a run's manifest lists both).
ALTER TABLE "llm_call" ADD COLUMN "reportedModel" TEXT;
