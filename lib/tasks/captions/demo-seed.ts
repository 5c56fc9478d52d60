/**
 * The captions task's part of the demo (testkit/demo/seed-demo-project.ts): a reference set over the clips and
 * two simulated models' outputs, judged for style and content.
 */
import path from "node:path";
import type { DemoSeedPart } from "../../../testkit/demo/demo-part";
import { CLIPS } from "../../../testkit/demo/demo-clips";

export const captionsDemo: DemoSeedPart = {
  async seed({ projectId, endpointId, api, log }) {
    const captions = demoCaptions();
    const reference = await api(
      `/api/v1/projects/${projectId}/caption-sets`,
      upload(
        { name: "Demo caption references (simulated)", citation: "Written for the demo in AnyCapEval's format" },
        "demo-references.jsonl",
        captions.reference,
      ),
    );
    const setId = String((reference.set as { id: string }).id);
    for (const [model, text] of Object.entries(captions.outputs)) {
      await api(
        `/api/v1/projects/${projectId}/caption-sets/${setId}/outputs`,
        upload({ model, name: `${model} captions (simulated)` }, `${model}.jsonl`, text),
      );
    }
    for (const pipeline of ["caption_style", "caption_content"]) {
      const captionRun = await api(`/api/v1/projects/${projectId}/runs`, {
        json: { pipeline, endpointId, captionSetId: setId },
      });
      log(`started a simulated ${pipeline} run ${String(captionRun.id)}`);
    }
    return [];
  },
};

/** A multipart upload of `text` as `fileName`, with form fields. */
function upload(fields: Record<string, string>, fileName: string, text: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new Blob([text]), fileName);
  return { form };
}

/**
 * The demo's caption set in AnyCapEval's format: per clip a brief, a detail and an action caption (with key
 * points), and two simulated models' outputs. Model A keeps the reference's length for brief captions and
 * writes short detail captions; model B the other way round, so each breaks the ±10% rule somewhere.
 */
export function demoCaptions(): { reference: string; outputs: Record<string, string> } {
  const references: unknown[] = [];
  const outputs: Record<string, unknown[]> = { "simulated-model-a": [], "simulated-model-b": [] };
  CLIPS.forEach((clip, i) => {
    const video = path.basename(clip.path);
    const prompt = video.replace(/-\d+\.mp4$/, "");
    const detail = `${prompt} The camera holds still while the scene changes slowly, and the light stays even from the first frame to the last one.`;
    const line = (id: string, type: string, instruction: string, text: string, keyPoints?: string[]) => ({
      id,
      video,
      conversations: [
        { from: "human", value: `<video>\n${instruction}` },
        { from: "gpt", value: text },
      ],
      restriction: [type, ""],
      ...(keyPoints ? { key_point: keyPoints } : {}),
    });
    references.push(
      line(`${i}-brief`, "brief", "Describe the video in one short sentence.", prompt),
      line(`${i}-detail`, "detail", "Describe the video in detail.", detail),
      line(`${i}-action`, "action", "Describe the actions in the video.", prompt, [
        prompt.replace(/\.$/, ""),
        "the camera holds still",
      ]),
    );
    outputs["simulated-model-a"]!.push(
      { id: `${i}-brief`, output: prompt },
      { id: `${i}-detail`, output: prompt },
      { id: `${i}-action`, output: prompt },
    );
    outputs["simulated-model-b"]!.push(
      { id: `${i}-brief`, output: prompt.split(" ").slice(0, 3).join(" ") },
      { id: `${i}-detail`, output: detail },
      { id: `${i}-action`, output: "The camera holds still throughout." },
    );
  });
  const jsonl = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).join("\n") + "\n";
  return {
    reference: jsonl(references),
    outputs: Object.fromEntries(Object.entries(outputs).map(([model, rows]) => [model, jsonl(rows)])),
  };
}
