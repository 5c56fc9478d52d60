import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Actor } from "../auth/actor";
import type { PrismaClient } from "../generated/prisma/client";
import { createApiKey } from "../auth/api-keys";
import { createUser } from "../auth/users";
import { createPrismaClient } from "../db/prisma";
import { resolveDatabase } from "../db/resolve-database";
import { computeFrameFeatures } from "../frames/frame-features";
import { normaliseFrameSetParameters } from "../frames/frame-set-parameters";
import { framesToUpload } from "../frames/frames-to-upload";
import { planFrameSet, uniformCountTimestamps, uniformSampleTimestamps } from "../frames/plan-frame-set";
import { importGenericLabels } from "../label-sets/label-sets";
import { createProject } from "../projects/projects";
import { seedingClient } from "./seeding-client";
import { DEMO_CONSTRUCTION_ENDPOINT, DEMO_CONSTRUCTION_PROJECT, seedConstructionProject } from "../tasks/construction/demo-seed";

const DEMO_EMAIL = "demo@framejury.local";
const DEMO_PASSWORD = "demo-password";
const DEMO_PROJECT = "Demo — simulated judgments";
/** The demo's account (a site admin), printed by `npm run demo`. */
export const DEMO_CREDENTIALS = { email: DEMO_EMAIL, password: DEMO_PASSWORD };

// Generated clips (ffmpeg test sources) under VBench-style names; the prompts are VBench-2.0's.
export const CLIPS = [
  { source: "testsrc2=size=480x270:rate=24", path: "Mechanics/A bowl of soup is tilted in the space station, with the liquid slowly spreading in all directions.-0.mp4" },
  { source: "mandelbrot=size=480x270:rate=24", path: "Thermotics/A block of ice melts on a hot stove.-0.mp4" },
  { source: "life=size=480x270:rate=24:mold=10:ratio=0.1", path: "Material/A piece of paper is folded into a paper airplane.-0.mp4" },
  { source: "cellauto=size=480x270:rate=24:rule=110", path: "Dynamic_Attribute/A river changes from blue to brown.-0.mp4" },
];
const DURATION_S = 3;

/**
 * Creates (once) the demo user, project, stub endpoint and clips with frames, then starts a
 * hallucination run, all through the public API the way a script of a user would.
 */
export async function seedDemoProject(options: {
  baseUrl: string;
  stubBaseUrl: string;
  clipsDir: string | null;
  log: (line: string) => void;
  /** Tests: fail (throw) after this many clips, as a crash in the middle of seeding would. */
  failAfterClips?: number;
}) {
  const database = await resolveDatabase();
  const prisma = createPrismaClient(database.url);
  try {
    let user = await prisma.user.findUnique({ where: { email: DEMO_EMAIL } });
    if (!user) {
      const created = await createUser(prisma, { email: DEMO_EMAIL, password: DEMO_PASSWORD, name: "Demo", isAdmin: true });
      user = await prisma.user.findUniqueOrThrow({ where: { id: created.id } });
    }
    const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin };
    const existing = await prisma.project.findFirst({ where: { name: DEMO_PROJECT, members: { some: { userId: user.id } } } });
    if (existing) {
      // The stub listens on a new port each time the demo starts.
      await prisma.judgeEndpoint.updateMany({ where: { projectId: existing.id, name: "Stub LLM (simulated)" }, data: { baseUrl: options.stubBaseUrl } });
      const construction = await prisma.project.findFirst({ where: { name: DEMO_CONSTRUCTION_PROJECT, members: { some: { userId: user.id } } }, select: { id: true } });
      if (construction) await prisma.judgeEndpoint.updateMany({ where: { projectId: construction.id, name: DEMO_CONSTRUCTION_ENDPOINT }, data: { baseUrl: options.stubBaseUrl } });
      return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: existing.id, constructionProjectId: construction?.id ?? null, comparePath: await demoComparePath(prisma, existing.id) };
    }
    const project = await createProject(prisma, actor, { name: DEMO_PROJECT });
    const { key } = await createApiKey(prisma, user.id, "demo seeding");
    // Over HTTP as a user's script would, one connection per request, retried when that is safe (seeding-client.ts).
    const api = seedingClient({ baseUrl: options.baseUrl, apiKey: key, log: options.log });
    const json = (body: unknown) => ({ json: body });

    const endpoint = await api(`/api/v1/projects/${project.id}/endpoints`, json({
      name: "Stub LLM (simulated)", baseUrl: options.stubBaseUrl, model: "stub-vision", apiKey: null, maxConcurrency: 8, imageDetail: "low",
    }));
    if (!options.clipsDir) return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: project.id, constructionProjectId: null, comparePath: null };

    const clipsDir = options.clipsDir;
    const uploadClip = async (projectId: string, clip: (typeof CLIPS)[number]) => {
      const file = path.join(clipsDir, path.basename(clip.path));
      if (!fs.existsSync(file)) execFileSync("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", clip.source, "-t", String(DURATION_S), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", file]);
      const form = new FormData();
      form.set("path", `Demo model/${clip.path}`);
      form.set("file", new Blob([fs.readFileSync(file)]), path.basename(file));
      const video = await api(`/api/v1/projects/${projectId}/videos`, { form });
      await api(`/api/v1/videos/${String(video.id)}/frame-sets`, { form: frameSetForm(file, clipsDir) });
      // The caption judges see 8 evenly spaced frames; QA runs 8 or 16 at a quarter of the clip's area.
      await api(`/api/v1/videos/${String(video.id)}/frame-sets`, { form: uniformFrameSetForm(file, clipsDir, 8) });
      for (const count of [8, 16]) await api(`/api/v1/videos/${String(video.id)}/frame-sets`, { form: uniformFrameSetForm(file, clipsDir, count, QUARTER_SIDE) });
      options.log(`demo clip ${clip.path}`);
      clipsUploaded++;
      if (options.failAfterClips !== undefined && clipsUploaded >= options.failAfterClips) {
        throw new Error(`stopping after ${clipsUploaded} clip(s), as FRAMEJURY_DEMO_FAIL_AFTER_CLIPS asks (a test of the demo's clean-up)`);
      }
    };
    let clipsUploaded = 0;
    for (const clip of CLIPS) await uploadClip(project.id, clip);
    const run = await api(`/api/v1/projects/${project.id}/runs`, json({ pipeline: "hallucination", endpointId: endpoint.id }));
    options.log(`started a simulated hallucination run ${String(run.id)}`);
    // A second setup to compare with the first (Compare judge setups needs two runs): the worst score
    // anywhere instead of the mean of the categories' worst, and a lower verdict threshold.
    const secondRun = await api(`/api/v1/projects/${project.id}/runs`, json({ pipeline: "hallucination", endpointId: endpoint.id, settings: DEMO_SECOND_RUN_SETTINGS }));
    options.log(`started a second simulated hallucination run ${String(secondRun.id)} (max-max, threshold 3)`);
    // A label set over the clips, so Paper's table and Compare judge setups have a reference on the first visit.
    const labels = await importDemoLabelSet(prisma, actor, project.id);
    options.log(`imported the label set "${DEMO_LABEL_SET}" (${labels.labels} labels over ${labels.videos} clips)`);

    // Captions: a reference set over the clips and two simulated models' outputs, judged for style and content.
    const upload = (fields: Record<string, string>, fileName: string, text: string) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set("file", new Blob([text]), fileName);
      return { form };
    };
    const captions = demoCaptions();
    const reference = await api(`/api/v1/projects/${project.id}/caption-sets`, upload({ name: "Demo caption references (simulated)", citation: "Written for the demo in AnyCapEval's format" }, "demo-references.jsonl", captions.reference));
    const setId = String((reference.set as { id: string }).id);
    for (const [model, text] of Object.entries(captions.outputs)) {
      await api(`/api/v1/projects/${project.id}/caption-sets/${setId}/outputs`, upload({ model, name: `${model} captions (simulated)` }, `${model}.jsonl`, text));
    }
    for (const pipeline of ["caption_style", "caption_content"]) {
      const captionRun = await api(`/api/v1/projects/${project.id}/runs`, json({ pipeline, endpointId: endpoint.id, captionSetId: setId }));
      options.log(`started a simulated ${pipeline} run ${String(captionRun.id)}`);
    }

    // Video QA: a simulated question set answered by two simulated models (one sees the frames, one guesses),
    // judged by a third stub endpoint; the first also at 16 frames and without frames (the text-only baseline).
    const questionSet = await api(`/api/v1/projects/${project.id}/question-sets`, upload({ name: "Demo questions (simulated)", citation: "Written for the demo in FrameJury's question-set format" }, "demo-questions.jsonl", demoQuestions()));
    const questionSetId = String((questionSet.set as { id: string }).id);
    const stubEndpoint = (name: string, model: string) => api(`/api/v1/projects/${project.id}/endpoints`, json({ name, baseUrl: options.stubBaseUrl, model, apiKey: null, maxConcurrency: 8, imageDetail: "low" }));
    const guesser = await stubEndpoint("Stub guesser (simulated)", "stub-guess");
    const judge = await stubEndpoint("Stub judge (simulated)", "stub-judge");
    for (const [evaluated, settings] of [
      [endpoint, { frames: 8, textOnlyBaseline: true }],
      [guesser, { frames: 8 }],
      [endpoint, { frames: 16 }],
    ] as const) {
      const qaRun = await api(`/api/v1/projects/${project.id}/runs`, json({ pipeline: "qa", endpointId: evaluated.id, questionSetId, settings: { ...settings, judgeEndpointId: judge.id } }));
      options.log(`started a simulated QA run ${String(qaRun.id)}`);
    }

    // Q&A construction: three of the clips with simulated step annotations (lib/tasks/construction/demo-seed.ts).
    const constructionClips = CLIPS.slice(0, 3);
    const construction = await seedConstructionProject({
      prisma,
      actor,
      stubBaseUrl: options.stubBaseUrl,
      videoFileNames: constructionClips.map((clip) => path.basename(clip.path)) as [string, string, string],
      addVideos: async (projectId) => {
        for (const clip of constructionClips) await uploadClip(projectId, clip);
      },
      api: { get: (route) => api(route), post: (route, body) => api(route, json(body)) },
      log: options.log,
    });
    if (!construction.runs) options.log("the construction project's runs wait for the qa_generate and qa_construct pipelines");
    await prisma.apiKey.updateMany({ where: { userId: user.id, name: "demo seeding" }, data: { revokedAt: new Date() } });
    return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: project.id, constructionProjectId: construction.projectId, comparePath: await demoComparePath(prisma, project.id) };
  } finally {
    await prisma.$disconnect();
    await database.stop();
  }
}

export const DEMO_LABEL_SET = "Demo labels (simulated)";
export const DEMO_SECOND_RUN_SETTINGS = { aggregation: "max-max", verdict: { on: "max_category", threshold: 3 } };

/** Compare judge setups with the demo's two hallucination runs ticked against its label set (null without them). */
async function demoComparePath(prisma: PrismaClient, projectId: string): Promise<string | null> {
  const runs = await prisma.judgeRun.findMany({ where: { projectId, pipeline: "hallucination" }, orderBy: { createdAt: "asc" }, select: { id: true }, take: 2 });
  const labelSet = await prisma.labelSet.findFirst({ where: { projectId, name: DEMO_LABEL_SET }, select: { id: true } });
  if (runs.length < 2 || !labelSet) return null;
  return `/projects/${projectId}/calibration/compare?${new URLSearchParams({ runIds: runs.map((r) => r.id).join(","), labelSetId: labelSet.id })}`;
}

/** Imports demoLabels() into the demo project (whose videos carry CLIPS' file names) as the label set DEMO_LABEL_SET. */
export async function importDemoLabelSet(prisma: PrismaClient, actor: Actor, projectId: string) {
  const imported = await importGenericLabels(prisma, actor, projectId, {
    file: new TextEncoder().encode(demoLabels()),
    fileName: "demo-labels.csv",
    name: DEMO_LABEL_SET,
    citation: "Written for the demo (simulated labels, not a published benchmark)",
    dryRun: false,
  });
  if (imported.plan.issues.length) throw new Error(`the demo label set did not import cleanly: ${JSON.stringify(imported.plan.issues)}`);
  const labels = Object.values(imported.plan.judgments).reduce((sum, n) => sum + n, 0);
  return { labelSetId: imported.labelSet!.id, labels, videos: imported.plan.matchedVideos };
}

/**
 * The demo's label set as a generic CSV (lib/label-sets/generic-labels.ts): per clip a hallucination verdict
 * and a few presence labels, two clips hallucinating and two not, so every cell of the paper's table has both
 * classes.
 */
export function demoLabels(): string {
  const rows = ["video,annotator,target,value"];
  CLIPS.forEach((clip, i) => {
    const video = path.basename(clip.path);
    const hallucinates = i % 2 === 0;
    rows.push(`"${video}",demo,verdict,${hallucinates ? 1 : 0}`);
    rows.push(`"${video}",demo,s1,${hallucinates ? 1 : 0}`);
    rows.push(`"${video}",demo,d1,${i === 0 ? 1 : 0}`);
    rows.push(`"${video}",demo,inconsistency,${i === 2 ? 1 : 0}`);
  });
  return rows.join("\n") + "\n";
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
      conversations: [{ from: "human", value: `<video>\n${instruction}` }, { from: "gpt", value: text }],
      restriction: [type, ""],
      ...(keyPoints ? { key_point: keyPoints } : {}),
    });
    references.push(
      line(`${i}-brief`, "brief", "Describe the video in one short sentence.", prompt),
      line(`${i}-detail`, "detail", "Describe the video in detail.", detail),
      line(`${i}-action`, "action", "Describe the actions in the video.", prompt, [prompt.replace(/\.$/, ""), "the camera holds still"]),
    );
    outputs["simulated-model-a"]!.push({ id: `${i}-brief`, output: prompt }, { id: `${i}-detail`, output: prompt }, { id: `${i}-action`, output: prompt });
    outputs["simulated-model-b"]!.push(
      { id: `${i}-brief`, output: prompt.split(" ").slice(0, 3).join(" ") },
      { id: `${i}-detail`, output: detail },
      { id: `${i}-action`, output: "The camera holds still throughout." },
    );
  });
  const jsonl = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).join("\n") + "\n";
  return { reference: jsonl(references), outputs: Object.fromEntries(Object.entries(outputs).map(([model, rows]) => [model, jsonl(rows)])) };
}

/**
 * The demo's simulated question set in FrameJury's question-set format: per clip two multiple-choice and one
 * open question. By the stub's rules (lib/tasks/qa/stub-rules.ts) a model that sees picks the option sharing
 * the most words with the question, so some distractors are written to win: the simulated model gets about
 * half right, and the open answers that restate the question are judged right only where the reference shares
 * their words.
 */
export function demoQuestions(): string {
  const [soup, ice, paper, river] = CLIPS.map((clip) => path.basename(clip.path));
  const mc = (id: string, video: string, question: string, options: Record<string, string>, answer: string, category: string, granularity: "coarse" | "fine") => ({ id, video, question, format: "mc", options, answer, category, granularity });
  const open = (id: string, video: string, question: string, answer: string, category: string, granularity: "coarse" | "fine") => ({ id, video, question, format: "open", answer, category, granularity });
  const questions = [
    mc("soup-1", soup!, "What happens to the soup when the bowl is tilted?", { A: "The soup spreads slowly in all directions.", B: "The soup and the bowl stay tilted and still.", C: "It turns into ice." }, "A", "Step Sequencing", "coarse"),
    mc("soup-2", soup!, "Where is the bowl of soup?", { A: "On a kitchen table.", B: "In the space station, the bowl of soup floats.", C: "In a garden." }, "B", "Object Attribute Recognition", "fine"),
    open("soup-3", soup!, "How does the liquid move in the space station?", "The liquid moves through the space station.", "Step Sequencing", "coarse"),
    mc("ice-1", ice!, "What melts on the hot stove?", { A: "A block of ice melts on the hot stove.", B: "A candle.", C: "Butter." }, "A", "Object Existence in Steps", "coarse"),
    mc("ice-2", ice!, "What is left on the stove after the ice melts?", { A: "A puddle of water.", B: "The ice melts and is left on the stove.", C: "Smoke." }, "A", "Future Step Prediction", "fine"),
    open("ice-3", ice!, "What heats the block of ice?", "The stove underneath it.", "Specific Step Recognition", "fine"),
    mc("paper-1", paper!, "What is the paper folded into?", { A: "A paper airplane.", B: "A paper boat, folded twice.", C: "A crane." }, "A", "Step Sequencing", "coarse"),
    mc("paper-2", paper!, "What happens to the piece of paper?", { A: "The piece of paper is folded.", B: "It burns.", C: "It is torn." }, "A", "Intermediate Steps Recognition", "fine"),
    open("paper-3", paper!, "What does the paper become?", "The paper becomes a paper airplane.", "Object Interaction Recognition", "coarse"),
    mc("river-1", river!, "What colour does the river change to?", { A: "Brown.", B: "Green.", C: "Blue." }, "A", "Object Attribute Recognition", "fine"),
    mc("river-2", river!, "What colour was the river before it changed?", { A: "The river was brown before it changed colour.", B: "Blue.", C: "Red." }, "B", "Past Step Recall", "coarse"),
    open("river-3", river!, "How does the river change?", "The river changes from blue to brown.", "Step Sequencing", "coarse"),
  ];
  return questions.map((q) => JSON.stringify(q)).join("\n") + "\n";
}

/** The clips are 480×270: a quarter of their area is 240×135, a longest side of 240. */
const QUARTER_SIDE = 240;

/**
 * A uniform set of `count` frames at the centres of equal segments, as the browser's uniform mode takes them;
 * at the clip's size (480), or scaled to a longest side of `maxSide`.
 */
function uniformFrameSetForm(file: string, workDir: string, count: number, maxSide = 480): FormData {
  const parameters = normaliseFrameSetParameters({ mode: "uniform", count, maxSide });
  const timestamps = uniformCountTimestamps(DURATION_S, count);
  const frameDir = fs.mkdtempSync(path.join(workDir, "uniform-"));
  const scale = maxSide < 480 ? ["-vf", `scale=${maxSide}:${Math.round((270 * maxSide) / 480)}`] : [];
  timestamps.forEach((t, i) => execFileSync("ffmpeg", ["-loglevel", "error", "-ss", t.toFixed(3), "-i", file, ...scale, "-frames:v", "1", "-q:v", "3", path.join(frameDir, `${i}.jpg`)]));
  const plan = planFrameSet(parameters, timestamps.map((timestampS) => ({ timestampS, features: new Float32Array(0) })), DURATION_S);
  const { manifest, sampledIndex } = framesToUpload(plan);
  const form = new FormData();
  form.set("parameters", JSON.stringify(parameters));
  form.set("manifest", JSON.stringify(manifest));
  form.set("decoder", "native-ffmpeg (demo)");
  manifest.forEach((entry, i) => form.append(entry.name, new Blob([new Uint8Array(fs.readFileSync(path.join(frameDir, `${sampledIndex[i]!}.jpg`)))]), entry.name));
  return form;
}

/** Frames extracted with native ffmpeg the way the browser does it: fps=4:round=up, then key frames. */
function frameSetForm(file: string, workDir: string): FormData {
  const parameters = normaliseFrameSetParameters({ mode: "density-peaks", sampleFps: 4, maxSide: 480 });
  const timestamps = uniformSampleTimestamps(DURATION_S, 4);
  const frameDir = fs.mkdtempSync(path.join(workDir, "frames-"));
  execFileSync("ffmpeg", ["-loglevel", "error", "-i", file, "-vf", "fps=4:round=up", "-frames:v", String(timestamps.length), "-q:v", "3", path.join(frameDir, "%05d.jpg")]);
  const raw = execFileSync("ffmpeg", ["-loglevel", "error", "-i", file, "-vf", "fps=4:round=up,scale=64:36", "-frames:v", String(timestamps.length), "-f", "rawvideo", "-pix_fmt", "rgba", "-"], { maxBuffer: 64 * 1024 * 1024 });
  const frameBytes = 64 * 36 * 4;
  const sampled = timestamps.map((timestampS, i) => ({ timestampS, features: computeFrameFeatures(raw.subarray(i * frameBytes, (i + 1) * frameBytes), 64, 36) }));
  const plan = planFrameSet(parameters, sampled, DURATION_S);
  const { manifest, sampledIndex } = framesToUpload(plan);
  const form = new FormData();
  form.set("parameters", JSON.stringify(parameters));
  form.set("manifest", JSON.stringify(manifest));
  form.set("decoder", "native-ffmpeg (demo)");
  manifest.forEach((entry, i) => {
    const jpeg = fs.readFileSync(path.join(frameDir, `${String(sampledIndex[i]! + 1).padStart(5, "0")}.jpg`));
    form.append(entry.name, new Blob([new Uint8Array(jpeg)]), entry.name);
  });
  return form;
}
