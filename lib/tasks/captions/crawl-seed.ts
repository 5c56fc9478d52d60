/**
 * TEST TOOL. The captions task's data in the every-page crawl (e2e/crawl-seed.ts): a reference set, two
 * models' outputs, a style run and a content run. Captions of one type each: action, brief, detail, poem.
 */
import { jsonlBytes } from "../../../testkit/testing/item-files";
import { smallReferenceSet } from "../../../testkit/tasks/captions/caption-fixtures";
import type { CrawlSeedPart } from "../../../testkit/crawl/task-crawl";

export const captionsCrawlSeed: CrawlSeedPart = async ({ prisma, projectId, api, upload, endpointId, waitForRun }) => {
  const reference = await api<{ set: { id: string } }>(`/api/v1/projects/${projectId}/caption-sets`, {
    method: "POST",
    body: upload({}, "crawl-ref.jsonl", jsonlBytes(...smallReferenceSet())),
  });
  for (const model of ["crawl-alpha", "crawl-beta"]) {
    const outputs = jsonlBytes(
      ...[1, 2, 3, 4].map((id) => ({ id, output: `A red ball rolls down the ramp, written by ${model}.` })),
    );
    await api(`/api/v1/projects/${projectId}/caption-sets/${reference.set.id}/outputs`, {
      method: "POST",
      body: upload({ model }, `${model}.jsonl`, outputs),
    });
  }
  const runIds: string[] = [];
  for (const pipeline of ["caption_style", "caption_content"]) {
    const run = await api<{ id: string }>(`/api/v1/projects/${projectId}/runs`, {
      method: "POST",
      body: JSON.stringify({ pipeline, endpointId, captionSetId: reference.set.id }),
    });
    await waitForRun(run.id);
    runIds.push(run.id);
  }
  const captions = await prisma.item.findMany({
    where: { projectId, kind: "caption", model: "crawl-alpha" },
    orderBy: { group: "asc" },
    select: { id: true },
  });
  return { runIds, captionIds: captions.map((c) => c.id) };
};
