/**
 * The VBench-2.0 task's part of the demo (testkit/demo/seed-demo-project.ts): a project of its own with three of the
 * demo's clips (Mechanics, Thermotics, Material: their prompts are VBench-2.0's) from two generators, a prompt list in
 * VBench2_full_info.json's format whose questions were written for the demo, VBench's 64 uniform frames, a simulated
 * vbench2 run, and simulated "VBench results" so the page shows VBench's own values beside the judge's.
 */
import path from "node:path";
import type { DemoLink, DemoSeedPart } from "../../../testkit/demo/demo-part";
import { CLIPS } from "../../../testkit/demo/demo-clips";
import { createProject } from "../../projects/projects";

export const DEMO_VBENCH2_PROJECT = "VBench-2.0 demo (simulated)";
const GENERATORS = ["Demo model", "Demo model B"] as const;
const DEMO_ENDPOINT = "Stub VLM (simulated)";

/** The demo's prompt list, in VBench2_full_info.json's shape: VBench's prompts, questions written for the demo. */
export function demoFullInfo(): { prompt_en: string; dimension: string[]; auxiliary_info: string[] }[] {
  const questions: Record<string, string[]> = {
    Mechanics: [
      "Is the background of the video a space station? (yes or no)",
      "Does the liquid spread slowly in all directions? (yes or no)",
    ],
    Thermotics: [
      "Initially, is there a block of ice on a stove? (yes or no)",
      "Finally, has the ice melted? (yes or no)",
    ],
    Material: [
      "Is there a piece of paper? (yes or no)",
      "Finally, is the paper folded into a paper airplane? (yes or no)",
    ],
  };
  return CLIPS.slice(0, 3).map((clip) => {
    const [dimension, name] = clip.path.split("/") as [string, string];
    return {
      prompt_en: path.basename(name, ".mp4").replace(/-0$/, ""),
      dimension: [dimension],
      auxiliary_info: questions[dimension]!,
    };
  });
}

const link = (projectId: string): DemoLink => ({
  label: "demo VBench-2.0 results",
  path: `/projects/${projectId}/vbench2`,
  note: "two simulated generators, three dimensions",
});

export const vbench2Demo: DemoSeedPart = {
  async seed({ prisma, actor, api, uploadClips, stubBaseUrl, log }) {
    // Made in-process as the construction project is; everything in it then goes through the API.
    const projectId = (await createProject(prisma, actor, { name: DEMO_VBENCH2_PROJECT })).id;
    const form = new FormData();
    form.set("file", new Blob([JSON.stringify(demoFullInfo(), null, 2)]), "VBench2_full_info.json");
    await api(`/api/v1/projects/${projectId}/prompt-lists`, { form });
    for (const generator of GENERATORS) await uploadClips(projectId, 3, { generator, uniformCounts: [64] });
    const endpoint = await api(`/api/v1/projects/${projectId}/endpoints`, {
      json: {
        name: DEMO_ENDPOINT,
        baseUrl: stubBaseUrl,
        model: "stub-vision",
        apiKey: null,
        maxConcurrency: 8,
        imageDetail: "low",
      },
    });
    const run = await api(`/api/v1/projects/${projectId}/runs`, {
      json: { pipeline: "vbench2", endpointId: endpoint.id },
    });
    log(`started a simulated VBench-2.0 run ${String(run.id)}`);
    // "VBench's own results": what its evaluate.py would write, simulated (every video passes but one).
    const results: Record<string, [number, { video_path: string; video_results: number }[]]> = {};
    for (const clip of CLIPS.slice(0, 3)) {
      const dimension = clip.path.split("/")[0]!;
      const videos = GENERATORS.map((generator, g) => ({
        video_path: `${generator}/${clip.path}`,
        video_results: dimension === "Material" && g === 1 ? 0 : 1,
      }));
      results[dimension] = [videos.reduce((sum, v) => sum + v.video_results, 0) / videos.length, videos];
    }
    const labels = new FormData();
    labels.set("format", "vbench");
    labels.set("dryRun", "false");
    labels.set("name", "VBench's own results (simulated)");
    labels.set("citation", "Simulated for the demo in VBench-2.0's eval_results format");
    labels.set("file", new Blob([JSON.stringify(results)]), "demo_eval_results.json");
    await api(`/api/v1/projects/${projectId}/label-sets`, { form: labels });
    return [link(projectId)];
  },
  async resume({ prisma, actor, stubBaseUrl }) {
    const project = await prisma.project.findFirst({
      where: { name: DEMO_VBENCH2_PROJECT, members: { some: { userId: actor.userId } } },
      select: { id: true },
    });
    if (!project) return [];
    // The stub listens on a new port each time the demo starts.
    await prisma.judgeEndpoint.updateMany({
      where: { projectId: project.id, name: DEMO_ENDPOINT },
      data: { baseUrl: stubBaseUrl },
    });
    return [link(project.id)];
  },
};
