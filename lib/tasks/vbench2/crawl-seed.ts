/**
 * TEST TOOL. The VBench-2.0 task's data in the every-page crawl (e2e/crawl-seed.ts): two generators' videos of
 * Material with VBench's 64 uniform frames, judged by the stub as the VLM.
 */
import type { CrawlSeedPart } from "../../../testkit/crawl/task-crawl";
import { vbench2Project } from "../../../testkit/tasks/vbench2/vbench2-fixtures";

export const vbench2CrawlSeed: CrawlSeedPart = async ({ prisma, owner, projectId, api, endpointId, waitForRun }) => {
  const questions = [
    "Do the blue and yellow paints visibly mix? (yes or no)",
    "Finally, is the paint green? (yes or no)",
  ];
  await vbench2Project(
    prisma,
    owner,
    ["Crawl generator A", "Crawl generator B"].map((model) => ({
      model,
      dimension: "Material",
      prompt: "Blue and yellow paint are stirred together.",
      auxiliaryInfo: questions,
    })),
    projectId,
  );
  const run = await api<{ id: string }>(`/api/v1/projects/${projectId}/runs`, {
    method: "POST",
    body: JSON.stringify({ pipeline: "vbench2", endpointId, settings: { dimensions: ["Material"] } }),
  });
  await waitForRun(run.id);
  return { runIds: [run.id] };
};
