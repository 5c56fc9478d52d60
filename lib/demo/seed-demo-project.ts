import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createApiKey } from "../auth/api-keys";
import { createUser } from "../auth/users";
import { createPrismaClient } from "../db/prisma";
import { resolveDatabase } from "../db/resolve-database";
import { computeFrameFeatures } from "../frames/frame-features";
import { normaliseFrameSetParameters } from "../frames/frame-set-parameters";
import { framesToUpload } from "../frames/frames-to-upload";
import { planFrameSet, uniformCountTimestamps, uniformSampleTimestamps } from "../frames/plan-frame-set";
import { createProject } from "../projects/projects";

const DEMO_EMAIL = "demo@framejury.local";
const DEMO_PASSWORD = "demo-password";
const DEMO_PROJECT = "Demo — simulated judgments";

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
export async function seedDemoProject(options: { baseUrl: string; stubBaseUrl: string; clipsDir: string | null; log: (line: string) => void }) {
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
      return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: existing.id };
    }
    const project = await createProject(prisma, actor, { name: DEMO_PROJECT });
    const { key } = await createApiKey(prisma, user.id, "demo seeding");
    const api = (route: string, init: RequestInit = {}) =>
      fetch(`${options.baseUrl}${route}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } }).then(async (r) => {
        const body = await r.json().catch(() => null);
        if (!r.ok) throw new Error(`${route}: ${r.status} ${JSON.stringify(body)}`);
        return body as Record<string, unknown>;
      });
    const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    const endpoint = await api(`/api/v1/projects/${project.id}/endpoints`, json({
      name: "Stub LLM (simulated)", baseUrl: options.stubBaseUrl, model: "stub-vision", apiKey: null, maxConcurrency: 8, imageDetail: "low",
    }));
    if (!options.clipsDir) return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: project.id };

    for (const clip of CLIPS) {
      const file = path.join(options.clipsDir, path.basename(clip.path));
      execFileSync("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", clip.source, "-t", String(DURATION_S), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", file]);
      const form = new FormData();
      form.set("path", `Demo model/${clip.path}`);
      form.set("file", new Blob([fs.readFileSync(file)]), path.basename(file));
      const video = await api(`/api/v1/projects/${project.id}/videos`, { method: "POST", body: form });
      await api(`/api/v1/videos/${String(video.id)}/frame-sets`, { method: "POST", body: frameSetForm(file, options.clipsDir) });
      // The caption judges see 8 evenly spaced frames.
      await api(`/api/v1/videos/${String(video.id)}/frame-sets`, { method: "POST", body: uniformFrameSetForm(file, options.clipsDir, 8) });
      options.log(`demo clip ${clip.path}`);
    }
    const run = await api(`/api/v1/projects/${project.id}/runs`, json({ pipeline: "hallucination", endpointId: endpoint.id }));
    options.log(`started a simulated hallucination run ${String(run.id)}`);

    // Captions: a reference set over the clips and two simulated models' outputs, judged for style and content.
    const upload = (fields: Record<string, string>, fileName: string, text: string) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set("file", new Blob([text]), fileName);
      return { method: "POST", body: form };
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
    await prisma.apiKey.updateMany({ where: { userId: user.id, name: "demo seeding" }, data: { revokedAt: new Date() } });
    return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: project.id };
  } finally {
    await prisma.$disconnect();
    await database.stop();
  }
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

/** A uniform set of `count` frames at the centres of equal segments, as the browser's uniform mode takes them. */
function uniformFrameSetForm(file: string, workDir: string, count: number): FormData {
  const parameters = normaliseFrameSetParameters({ mode: "uniform", count, maxSide: 480 });
  const timestamps = uniformCountTimestamps(DURATION_S, count);
  const frameDir = fs.mkdtempSync(path.join(workDir, "uniform-"));
  timestamps.forEach((t, i) => execFileSync("ffmpeg", ["-loglevel", "error", "-ss", t.toFixed(3), "-i", file, "-frames:v", "1", "-q:v", "3", path.join(frameDir, `${i}.jpg`)]));
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
