import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { loadJudgeTrust } from "@/lib/pairwise/judge/judge-trust";
import { ok } from "@/lib/api/openapi/route-builders";
import { pairwiseTrustAnswerSchema } from "@/lib/pairwise/judge/pairwise-run.types";

export const GET = withProjectOf(
  runLookup(),
  "project.view",
  {
    summary: "A pairwise run's judge-trust figures per aspect",
    description:
      "Per aspect: answers, answers without a verdict label, pairs answered in both orders, position flips (the winner changes when the videos are exchanged) and their rate, pairs whose orders disagree at all, and the share of decided answers that chose the video shown first (0.5: no position bias). A run that is not pairwise is a 404.",
    responses: [ok("`{runId, aspects: [...]}`.", pairwiseTrustAnswerSchema)],
  },
  async ({ prisma, access, record }) => Response.json(await loadJudgeTrust(prisma, access, record.id)),
);
