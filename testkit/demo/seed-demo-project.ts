import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createApiKey } from "../../lib/auth/api-keys";
import { createUser } from "../../lib/auth/users";
import { createPrismaClient } from "../../lib/db/prisma";
import { resolveDatabase } from "../../lib/db/resolve-database";
import { nativeTools } from "../../lib/bulk-import/ffmpeg-tools";
import { extractFrameSetFromFile } from "../../lib/bulk-import/native-extraction";
import { computeFrameFeatures } from "../../lib/frames/frame-features";
import { densityPeaksParametersSchema } from "../../lib/frames/frame-set-parameters";
import { framesToUpload } from "../../lib/frames/frames-to-upload";
import { planFrameSet, uniformSampleTimestamps } from "../../lib/frames/plan-frame-set";
import { createProject } from "../../lib/projects/projects";
import { rubricLinks, seedDemoRubrics } from "./demo-rubrics";
import { installedTaskModules } from "../../lib/task-modules/installed-task-modules";
import { CLIPS } from "./demo-clips";
import type { ClipUploadOptions, DemoLink, DemoResumeContext, DemoSeedContext } from "./demo-part";
import { seedingClient } from "./seeding-client";
import { DEMO_STUB_ENDPOINT, moveDemoStubEndpoints } from "./demo-stub-endpoints";

const DEMO_EMAIL = "demo@framejury.local";
const DEMO_PASSWORD = "demo-password";
const DEMO_PROJECT = "Demo — simulated judgments";
/** The demo's account (a site admin), printed by `npm run demo`. */
export const DEMO_CREDENTIALS = { email: DEMO_EMAIL, password: DEMO_PASSWORD };

const DURATION_S = 3;

/**
 * Creates (once) the demo user, project, stub endpoint and clips with frames, then runs each registered
 * task's part of the demo (`demoSeed` of its TaskModule) in registry order, all through the public API the
 * way a script of a user would. Returns the pages the parts want printed.
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
      const created = await createUser(prisma, {
        email: DEMO_EMAIL,
        password: DEMO_PASSWORD,
        name: "Demo",
        isAdmin: true,
      });
      user = await prisma.user.findUniqueOrThrow({ where: { id: created.id } });
    }
    const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin };
    const existing = await prisma.project.findFirst({
      where: { name: DEMO_PROJECT, members: { some: { userId: user.id } } },
    });
    if (existing) {
      // The stub listens on a new port each time the demo starts: its endpoint moves, and the user's copies of it.
      await moveDemoStubEndpoints(prisma, {
        userId: user.id,
        demoProjectId: existing.id,
        stubBaseUrl: options.stubBaseUrl,
      });
      const resume: DemoResumeContext = { prisma, actor, projectId: existing.id, stubBaseUrl: options.stubBaseUrl };
      const links: DemoLink[] = [];
      for (const part of await demoParts()) if (part.resume) links.push(...(await part.resume(resume)));
      links.push(...(await rubricLinks(resume)));
      return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: existing.id, links };
    }
    const project = await createProject(prisma, actor, { name: DEMO_PROJECT });
    const { key } = await createApiKey(prisma, user.id, "demo seeding");
    // Over HTTP as a user's script would, one connection per request, retried when that is safe (seeding-client.ts).
    const api = seedingClient({ baseUrl: options.baseUrl, apiKey: key, log: options.log });
    const json = (body: unknown) => ({ json: body });

    const endpoint = await api(
      `/api/v1/projects/${project.id}/endpoints`,
      json({
        name: DEMO_STUB_ENDPOINT,
        baseUrl: options.stubBaseUrl,
        model: "stub-vision",
        apiKey: null,
        maxConcurrency: 8,
        imageDetail: "low",
      }),
    );
    if (!options.clipsDir) return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: project.id, links: [] };

    const clipsDir = options.clipsDir;
    const uploadClip = async (projectId: string, clip: (typeof CLIPS)[number], clipOptions: ClipUploadOptions = {}) => {
      const generator = clipOptions.generator ?? DEMO_GENERATOR;
      // Another generator's clip is the same scene with its colours inverted: other bytes, so another video.
      const other = generator !== DEMO_GENERATOR;
      const file = path.join(
        clipsDir,
        `${other ? `${generator.replace(/[^A-Za-z0-9]+/g, "-")}-` : ""}${path.basename(clip.path)}`,
      );
      if (!fs.existsSync(file))
        execFileSync("ffmpeg", [
          "-loglevel",
          "error",
          "-y",
          "-f",
          "lavfi",
          "-i",
          clip.source,
          ...(other ? ["-vf", "negate"] : []),
          "-t",
          String(DURATION_S),
          "-c:v",
          "libx264",
          "-pix_fmt",
          "yuv420p",
          "-movflags",
          "+faststart",
          file,
        ]);
      const form = new FormData();
      form.set("path", `${generator}/${clip.path}`);
      form.set("file", new Blob([fs.readFileSync(file)]), path.basename(file));
      const video = await api(`/api/v1/projects/${projectId}/videos`, { form });
      await api(`/api/v1/videos/${String(video.id)}/frame-sets`, { form: frameSetForm(file, clipsDir) });
      // The caption judges see 8 evenly spaced frames; QA runs 8 or 16 at a quarter of the clip's area.
      await api(`/api/v1/videos/${String(video.id)}/frame-sets`, { form: await uniformFrameSetForm(file, 8) });
      for (const count of [8, 16])
        await api(`/api/v1/videos/${String(video.id)}/frame-sets`, {
          form: await uniformFrameSetForm(file, count, QUARTER_SIDE),
        });
      for (const count of clipOptions.uniformCounts ?? [])
        await api(`/api/v1/videos/${String(video.id)}/frame-sets`, { form: await uniformFrameSetForm(file, count) });
      options.log(`demo clip ${clip.path}`);
      clipsUploaded++;
      if (options.failAfterClips !== undefined && clipsUploaded >= options.failAfterClips) {
        throw new Error(
          `stopping after ${clipsUploaded} clip(s), as FRAMEJURY_DEMO_FAIL_AFTER_CLIPS asks (a test of the demo's clean-up)`,
        );
      }
    };
    let clipsUploaded = 0;
    for (const clip of CLIPS) await uploadClip(project.id, clip);
    const context: DemoSeedContext = {
      prisma,
      actor,
      projectId: project.id,
      endpointId: String(endpoint.id),
      stubBaseUrl: options.stubBaseUrl,
      api,
      uploadClips: async (projectId, count, clipOptions) => {
        for (const clip of CLIPS.slice(0, count)) await uploadClip(projectId, clip, clipOptions);
      },
      log: options.log,
    };
    const links: DemoLink[] = [];
    for (const part of await demoParts()) links.push(...(await part.seed(context)));
    // Rubric tasks are a project's data, not a task folder: the example rubrics, each with a simulated run.
    links.push(...(await seedDemoRubrics(context)));
    await prisma.apiKey.updateMany({
      where: { userId: user.id, name: "demo seeding" },
      data: { revokedAt: new Date() },
    });
    return { email: DEMO_EMAIL, password: DEMO_PASSWORD, projectId: project.id, links };
  } finally {
    await prisma.$disconnect();
    await database.stop();
  }
}

/** The generator folder of the demo's clips. */
const DEMO_GENERATOR = "Demo model";

/** The registered tasks' parts of the demo, in registry order (read when the demo seeds, so each loads only then). */
export async function demoParts() {
  return Promise.all(installedTaskModules().flatMap((task) => (task.demoSeed ? [task.demoSeed()] : [])));
}

/** The clips are 480×270: a quarter of their area is 240×135, a longest side of 240. */
const QUARTER_SIDE = 240;

/**
 * A uniform set of `count` frames, VBench-2.0's frames by index, extracted as `npm run import` extracts them;
 * at the clip's size (480), or scaled to a longest side of `maxSide`.
 */
async function uniformFrameSetForm(file: string, count: number, maxSide = 480): Promise<FormData> {
  const frames = await extractFrameSetFromFile(file, { mode: "uniform", count, maxSide }, { tools: nativeTools });
  const form = new FormData();
  form.set("parameters", JSON.stringify(frames.parameters));
  form.set("manifest", JSON.stringify(frames.manifest));
  form.set("decoder", "native-ffmpeg (demo)");
  for (const entry of frames.manifest)
    form.append(entry.name, new Blob([new Uint8Array(frames.files.get(entry.name)!)]), entry.name);
  return form;
}

/** Frames extracted with native ffmpeg the way the browser does it: fps=4:round=up, then key frames. */
function frameSetForm(file: string, workDir: string): FormData {
  const parameters = densityPeaksParametersSchema.parse({ mode: "density-peaks", sampleFps: 4, maxSide: 480 });
  const timestamps = uniformSampleTimestamps(DURATION_S, 4);
  const frameDir = fs.mkdtempSync(path.join(workDir, "frames-"));
  execFileSync("ffmpeg", [
    "-loglevel",
    "error",
    "-i",
    file,
    "-vf",
    "fps=4:round=up",
    "-frames:v",
    String(timestamps.length),
    "-q:v",
    "3",
    path.join(frameDir, "%05d.jpg"),
  ]);
  const raw = execFileSync(
    "ffmpeg",
    [
      "-loglevel",
      "error",
      "-i",
      file,
      "-vf",
      "fps=4:round=up,scale=64:36",
      "-frames:v",
      String(timestamps.length),
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgba",
      "-",
    ],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const frameBytes = 64 * 36 * 4;
  const sampled = timestamps.map((timestampS, i) => ({
    timestampS,
    features: computeFrameFeatures(raw.subarray(i * frameBytes, (i + 1) * frameBytes), 64, 36),
  }));
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
