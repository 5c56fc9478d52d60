-- AlterTable
ALTER TABLE "judge_endpoint" ADD COLUMN     "requestLogprobs" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "topLogprobs" INTEGER NOT NULL DEFAULT 5;

-- AlterTable
ALTER TABLE "response_cache" ADD COLUMN     "logprobs" JSONB;

-- AlterTable
ALTER TABLE "score" ADD COLUMN     "expected" DOUBLE PRECISION;
