/**
 * TEST TOOL. The QA task's data in the every-page crawl (e2e/crawl-seed.ts): questions (mc and open)
 * answered by the stub as the evaluated model, judged by a second endpoint, with a text-only baseline. The
 * crawl's uniform sets were extracted with a longest side of 768.
 */
import { questionSetBytes } from "../../../testkit/tasks/qa/qa-fixtures";
import type { CrawlSeedPart } from "../../../testkit/crawl/task-crawl";

export const qaCrawlSeed: CrawlSeedPart = async ({
  prisma,
  projectId,
  api,
  upload,
  stubBaseUrl,
  endpointId,
  waitForRun,
}) => {
  const questions = await api<{ set: { id: string } }>(`/api/v1/projects/${projectId}/question-sets`, {
    method: "POST",
    body: upload({}, "crawl-questions.jsonl", questionSetBytes()),
  });
  const judge = await api<{ id: string }>(`/api/v1/projects/${projectId}/endpoints`, {
    method: "POST",
    body: JSON.stringify({
      name: "Stub judge (simulated)",
      baseUrl: stubBaseUrl,
      model: "stub-judge",
      apiKey: null,
      maxConcurrency: 8,
    }),
  });
  const qaRun = await api<{ id: string }>(`/api/v1/projects/${projectId}/runs`, {
    method: "POST",
    body: JSON.stringify({
      pipeline: "qa",
      endpointId,
      questionSetId: questions.set.id,
      settings: {
        frames: 8,
        resize: { mode: "longest_side", px: 768 },
        textOnlyBaseline: true,
        judgeEndpointId: judge.id,
      },
    }),
  });
  await waitForRun(qaRun.id);
  const questionItems = await prisma.item.findMany({
    where: { projectId, kind: "question" },
    orderBy: { externalId: "asc" },
    select: { id: true },
  });
  return { runIds: [qaRun.id], questionIds: questionItems.map((q) => q.id) };
};
