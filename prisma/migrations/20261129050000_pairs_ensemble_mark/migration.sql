-- A pairwise parent run's ensemble says that its members judge pairs (lib/judge/runs/ensemble-settings.ts
-- PAIRS_ENSEMBLE), so the readers of video runs' ensembles never take it for theirs.
UPDATE "judge_run" SET "ensemble" = "ensemble" || '{"of": "pairs"}'::jsonb
WHERE "pairSetId" IS NOT NULL AND "ensemble" IS NOT NULL AND jsonb_typeof("ensemble") = 'object';
