/**
 * TEST TOOL. The construction task's data in the every-page crawl (e2e/crawl-seed.ts): the demo's step
 * annotations over the judged videos (a clip set), candidate questions and a curation queue over all of them
 * (scope "all", so it has items).
 */
import { insertCandidateSet } from "../../../testkit/tasks/construction/candidate-fixtures";
import type { CrawlSeedPart } from "../../../testkit/crawl/task-crawl";
import { demoStepAnnotations } from "./demo-seed";

export const constructionCrawlSeed: CrawlSeedPart = async ({ prisma, owner, projectId, judgedVideoIds, api }) => {
  const stepFileNames = [0, 1, 2].map((v) => `A ball rolls down a ramp number ${v}-0.mp4`) as [string, string, string];
  const stepForm = new FormData();
  stepForm.set("file", new Blob([demoStepAnnotations(stepFileNames)]), "crawl-steps.jsonl");
  await api(`/api/v1/projects/${projectId}/step-annotations`, { method: "POST", body: stepForm });
  const candidates = await insertCandidateSet(
    prisma,
    owner,
    projectId,
    [...judgedVideoIds],
    [
      {
        externalId: "crawl-c1",
        video: 0,
        question: "What happens after the ball is placed at the top?",
        answer: "It rolls down the ramp.",
      },
      { externalId: "crawl-c2", video: 1, question: "What is done last?", answer: "The ball is caught at the bottom." },
    ],
  );
  const curationQueue = await api<{ id: string }>(`/api/v1/projects/${projectId}/curation-queues`, {
    method: "POST",
    body: JSON.stringify({ candidateSetId: candidates.setId, name: "Crawl curation", scope: "all" }),
  });
  return { curationQueueIds: [curationQueue.id] };
};
