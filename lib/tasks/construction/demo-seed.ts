/**
 * The demo's simulated Q&A construction project: three of the demo's clips with a step-annotation file in
 * HiREST, YouCook2 and Ego4D Goal-Step style, imported as a clip set (the Ego4D record is long enough to be
 * trimmed into two clips). The annotations are written for the demo: their times describe the kind of video
 * each dataset has, not the three-second test clips they are attached to. Starting the construction runs is
 * seedConstructionRuns' job, which does nothing until the qa_generate and qa_construct pipelines exist.
 */
import path from "node:path";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import type { DemoLink, DemoSeedPart } from "../../../testkit/demo/demo-part";
import { CLIPS } from "../../../testkit/demo/demo-clips";
import { GENERATE_PIPELINE, CONSTRUCT_PIPELINE } from "./construction-overview";
import { importStepAnnotations } from "./step-annotation-sets";
import { createEndpoint } from "../../judge/endpoints/endpoints";
import { endpointInputSchema } from "../../judge/endpoints/endpoint-input.validation";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { createProject } from "../../projects/projects";
import { projectAccess } from "../../authz/permissions";

export const DEMO_CONSTRUCTION_PROJECT = "Demo — Q&A construction (simulated)";
export const DEMO_CONSTRUCTION_ENDPOINT = "Stub LLM (simulated)";

/** What the seeding sends to the running app: the runs must be queued by the app's own workers. */
export interface DemoApi {
  get(route: string): Promise<Record<string, unknown>>;
  post(route: string, body: unknown): Promise<Record<string, unknown>>;
}

export interface ConstructionSeedDeps {
  prisma: PrismaClient;
  actor: Actor;
  stubBaseUrl: string;
  /** The file names (last path segment) of three demo clips: HiREST-, YouCook2- and Ego4D-style in that order. */
  videoFileNames: readonly [string, string, string];
  /** Puts the clips into the project, with their frames (the demo uploads them through the API). */
  addVideos(projectId: string): Promise<void>;
  api: DemoApi;
  log(line: string): void;
  /** How long seedConstructionRuns waits for the generation run (ms). */
  runTimeoutMs?: number;
  /** The engine's pipelines (the catalogue's), which decide whether the runs start. */
  pipelines: Readonly<Record<string, unknown>>;
}

/** Back-to-back steps from `steps`, each `seconds` long, from `from` on. */
function stepsFrom(from: number, seconds: number, steps: readonly (readonly [string, string])[]) {
  return steps.map(([text, category], i) => ({
    start: from + i * seconds,
    end: from + (i + 1) * seconds,
    text,
    category,
  }));
}

/**
 * The demo's step annotations (JSONL). A few steps carry the stub's marker words (lib/tasks/construction/stub-rules.ts:
 * "obvious", "unicorn", "vague", "stubborn"), in steps that questions name (the stub asks about the first three steps
 * after, and the three before, each clip's later steps), so the simulated runs show the blind, hallucination and
 * unspecific filters removing questions, and questions no attempt transforms. The Ego4D Goal-Step record has 16 steps
 * of 40 s: steps 1–7 (280 s) and 8–14 (280 s) make two clips, and steps 15–16 (80 s) are too short for a third, which
 * the dry run reports.
 */
export function demoStepAnnotations(videos: readonly [string, string, string]): string {
  const [hirest, youcook, ego] = videos;
  const records = [
    {
      video: hirest,
      theme: "Make a Plaster Mask",
      duration: 103,
      dataset: "hirest",
      steps: [
        { start: 5, end: 20, text: "cut plaster strips" },
        { start: 20, end: 35, text: "put petroleum jelly on the face, the obvious first step" },
        { start: 35, end: 48, text: "clean out the face" },
        { start: 48, end: 60, text: "apply tissue using water on face" },
        { start: 60, end: 95, text: "lay wet plaster strips over the face" },
      ],
    },
    {
      video: youcook,
      theme: "pasta",
      duration: 300,
      dataset: "youcook2",
      steps: [
        { start: 10, end: 40, text: "boil the pasta in salted water" },
        { start: 45, end: 90, text: "fry garlic and chili in olive oil" },
        { start: 95, end: 150, text: "add tomatoes chopped into unicorn shapes and simmer" },
        { start: 155, end: 200, text: "drain the pasta and add a vague splash of its water" },
        { start: 205, end: 260, text: "top with basil and grated cheese" },
      ],
    },
    {
      video: ego,
      theme: "Make a vegetable omelette",
      duration: 700,
      dataset: "ego4d-goalstep",
      steps: stepsFrom(0, 40, [
        ["take eggs from the fridge", "Get ingredients"],
        ["crack eggs into a bowl", "Prepare eggs"],
        ["whisk the eggs", "Prepare eggs"],
        ["wash the peppers", "Wash vegetables"],
        ["chop the peppers", "Cut vegetables"],
        ["chop an onion", "Cut vegetables"],
        ["heat butter in a pan", "Add butter to a pan"],
        ["fry the onion", "Cook vegetables"],
        ["add the stubborn peppers to the pan", "Cook vegetables"],
        ["season with salt and pepper", "Season"],
        ["pour the eggs over the vegetables", "Cook eggs"],
        ["sprinkle cheese on top", "Add toppings"],
        ["fold the omelette", "Cook eggs"],
        ["slide the omelette onto a plate", "Serve"],
        ["wash the pan", "Clean up"],
        ["wipe the counter", "Clean up"],
      ]),
    },
  ];
  return records.map((record) => JSON.stringify(record)).join("\n") + "\n";
}

/**
 * Creates the construction project (once per demo user), its clips, a stub endpoint and the imported clip set;
 * then hands over to seedConstructionRuns. Returns the project and clip set ids.
 */
export async function seedConstructionProject(deps: ConstructionSeedDeps) {
  const { prisma, actor } = deps;
  const existing = await prisma.project.findFirst({
    where: { name: DEMO_CONSTRUCTION_PROJECT, members: { some: { userId: actor.userId } } },
    select: { id: true },
  });
  if (existing) {
    // The stub listens on a new port each time the demo starts.
    await prisma.judgeEndpoint.updateMany({
      where: { projectId: existing.id, name: DEMO_CONSTRUCTION_ENDPOINT },
      data: { baseUrl: deps.stubBaseUrl },
    });
    return { projectId: existing.id, clipSetId: null, runs: null };
  }
  const project = await createProject(prisma, actor, { name: DEMO_CONSTRUCTION_PROJECT });
  await deps.addVideos(project.id);
  const endpoint = await createEndpoint(
    prisma,
    await projectAccess(prisma, actor, project.id, "endpoints.manage"),
    endpointInputSchema.parse({
      name: DEMO_CONSTRUCTION_ENDPOINT,
      baseUrl: deps.stubBaseUrl,
      model: "stub-vision",
      apiKey: null,
      maxConcurrency: 8,
      imageDetail: "low",
    }),
  );
  const file = {
    fileName: "demo-steps.jsonl",
    bytes: new TextEncoder().encode(demoStepAnnotations(deps.videoFileNames)),
  };
  const imported = await importStepAnnotations(
    prisma,
    await projectAccess(prisma, actor, project.id, "videos.import"),
    file,
    {
      name: "Demo step annotations (simulated)",
      citation: "Written for the demo in HiREST, YouCook2 and Ego4D Goal-Step style",
    },
  );
  deps.log(
    `demo construction project: ${imported.clips} clips from ${imported.videos} videos (${Object.entries(
      imported.byDataset,
    )
      .map(([d, n]) => `${d} ${n}`)
      .join(", ")})`,
  );
  const runs = await seedConstructionRuns(
    deps,
    { projectId: project.id, clipSetId: imported.set.id!, endpointId: endpoint.id },
    deps.pipelines,
  );
  return { projectId: project.id, clipSetId: imported.set.id!, runs };
}

/**
 * Generates candidates over the clip set, makes the candidate set and starts filtering and transformation, all
 * through the running app's API. Returns null, doing nothing, while the engine has no qa_generate and
 * qa_construct pipelines (lib/judge/pipelines/index.ts).
 */
export async function seedConstructionRuns(
  deps: Pick<ConstructionSeedDeps, "api" | "log" | "runTimeoutMs">,
  target: { projectId: string; clipSetId: string; endpointId: string },
  pipelines: Readonly<Record<string, unknown>>,
): Promise<{ generateRunId: string; candidateSetId: string; constructRunId: string } | null> {
  if (!(GENERATE_PIPELINE in pipelines) || !(CONSTRUCT_PIPELINE in pipelines)) return null;
  const { api } = deps;
  const generate = await api.post(`/api/v1/projects/${target.projectId}/runs`, {
    pipeline: GENERATE_PIPELINE,
    endpointId: target.endpointId,
    clipSetId: target.clipSetId,
  });
  const generateRunId = String(generate.id);
  deps.log(`started a simulated generation run ${generateRunId}`);
  const deadline = Date.now() + (deps.runTimeoutMs ?? 5 * 60_000);
  for (;;) {
    const status = String((await api.get(`/api/v1/runs/${generateRunId}`)).status);
    if (status === "done") break;
    if (status !== "queued" && status !== "running")
      throw new Error(`The demo's generation run ${generateRunId} ended ${status}.`);
    if (Date.now() > deadline) throw new Error(`The demo's generation run ${generateRunId} did not finish in time.`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const candidates = await api.post(`/api/v1/runs/${generateRunId}/candidates`, {});
  const candidateSetId = String(candidates.setId);
  const construct = await api.post(`/api/v1/projects/${target.projectId}/runs`, {
    pipeline: CONSTRUCT_PIPELINE,
    endpointId: target.endpointId,
    candidateSetId,
  });
  deps.log(
    `started a simulated filter and transform run ${String(construct.id)} over ${String(candidates.count)} candidates`,
  );
  return { generateRunId, candidateSetId, constructRunId: String(construct.id) };
}

/**
 * The construction task's part of the demo (testkit/demo/seed-demo-project.ts): its own project over three of
 * the demo's clips with simulated step annotations (seedConstructionProject).
 */
export const constructionDemo: DemoSeedPart = {
  async seed({ prisma, actor, stubBaseUrl, api, uploadClips, log }) {
    const clipCount = 3;
    const construction = await seedConstructionProject({
      prisma,
      actor,
      stubBaseUrl,
      videoFileNames: CLIPS.slice(0, clipCount).map((clip) => path.basename(clip.path)) as [string, string, string],
      addVideos: (projectId) => uploadClips(projectId, clipCount),
      api: { get: (route) => api(route), post: (route, body) => api(route, { json: body }) },
      log,
      pipelines: builtInCatalogue().pipelines,
    });
    if (!construction.runs) log("the construction project's runs wait for the qa_generate and qa_construct pipelines");
    return [constructionLink(construction.projectId)];
  },
  async resume({ prisma, actor, stubBaseUrl }) {
    const construction = await prisma.project.findFirst({
      where: { name: DEMO_CONSTRUCTION_PROJECT, members: { some: { userId: actor.userId } } },
      select: { id: true },
    });
    if (!construction) return [];
    // The stub listens on a new port each time the demo starts.
    await prisma.judgeEndpoint.updateMany({
      where: { projectId: construction.id, name: DEMO_CONSTRUCTION_ENDPOINT },
      data: { baseUrl: stubBaseUrl },
    });
    return [constructionLink(construction.id)];
  },
};

const constructionLink = (projectId: string): DemoLink => ({
  label: "demo Q&A construction",
  path: `/projects/${projectId}/construction`,
  note: "simulated step annotations",
});
