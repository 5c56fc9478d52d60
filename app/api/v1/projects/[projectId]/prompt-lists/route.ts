import { withProject } from "@/lib/api/with-project";
import { readMultipart } from "@/lib/format/multipart";

import { PayloadTooLargeError, ValidationError } from "@/lib/errors";
import { appDeps } from "@/lib/videos/app-deps";
import {
  listPromptLists,
  MAX_PROMPT_LIST_BYTES,
  promptListQuerySchema,
  savePromptList,
} from "@/lib/videos/prompt-list-store";
import { ok, created } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "The project's prompt lists",
    responses: [ok("`{promptLists: [...]}`.")],
  },
  async ({ access }) => Response.json({ promptLists: await listPromptLists(appDeps(), access) }),
);

/**
 * multipart `file`: a VBench prompt file (prompt/<Dimension>.txt, VBench2_full_text_info.json, VBench2_full_info.json or
 * meta_info/<Dimension>.json with auxiliary_info), or txt/CSV/JSONL; `?dryRun=true` saves nothing and says what would match.
 */
export const POST = withProject(
  "videos.import",
  {
    summary: "Store a prompt list (owners)",
    description:
      "A VBench prompt file (prompt/<Dimension>.txt, VBench2_full_text_info.json, VBench2_full_info.json or meta_info/<Dimension>.json, whose auxiliary_info each matching video keeps by dimension), or txt/CSV/JSONL. The project's videos already there get the dimensions and auxiliary info the list gives them. The answer: `{id, name, format, entryCount, withAuxiliaryInfo, matchedVideos, videosUpdated, unmatchedPrompts: {count, byDimension: {<dimension>: {count, first}}}, unmatchedVideos: {count, first}}`; `dryRun=true` saves nothing and answers 200 with `id: null`. A list whose name and content equal one the project already has is not stored again: 200 with that list's `id` and `duplicateOf` (its id).",
    // Read by the handler with Object.fromEntries, which keeps an empty or repeated value that the wrapper's parse would leave out.
    query: { readBy: "handler", schema: promptListQuerySchema },
    body: { kind: "multipart", files: { file: "The prompt list." } },
    responses: [created("The stored list.")],
    errors: [413],
  },
  async ({ access, request }) => {
    const deps = appDeps();
    const { dryRun } = promptListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    let upload: { name: string; text: string } | null = null;
    await readMultipart(request, async (file) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of file.stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_PROMPT_LIST_BYTES)
          throw new PayloadTooLargeError(`Prompt lists may be at most ${MAX_PROMPT_LIST_BYTES} bytes.`);
        chunks.push(chunk);
      }
      upload = { name: file.filename || "prompts.txt", text: Buffer.concat(chunks).toString("utf8") };
    });
    const file = upload as { name: string; text: string } | null;
    if (!file) throw new ValidationError('Send the prompt list as a multipart part named "file".');
    const saved = await savePromptList(deps, access, file.name, file.text, { dryRun: dryRun === "true" });
    // 200 for a dry run and for a list the project already has (`duplicateOf`): nothing was created.
    return Response.json(saved, { status: saved.dryRun || saved.duplicateOf ? 200 : 201 });
  },
);
