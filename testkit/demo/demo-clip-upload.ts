/**
 * The demo's clips as a user's script uploads them: each made once with ffmpeg from a lavfi source (another
 * generator's copy inverted, so other bytes), uploaded through the API with the frame sets the tasks read
 * (key frames as the browser extracts them, uniform sets of 8 and 16 at a quarter of the area, and any a part asks for).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { nativeTools } from "../../lib/bulk-import/ffmpeg-tools";
import { extractFrameSetFromFile } from "../../lib/bulk-import/native-extraction";
import { computeFrameFeatures } from "../frames/frame-features";
import { densityPeaksParametersSchema } from "../../lib/frames/frame-set-parameters";
import { framesToUpload } from "../../lib/frames/frames-to-upload";
import { planFrameSet, uniformSampleTimestamps } from "../../lib/frames/plan-frame-set";
import type { CLIPS } from "./demo-clips";
import type { ClipUploadOptions } from "./demo-part";
import type { SeedingRequest } from "./seeding-client";

/** The demo's generator folder: another generator's clips are other videos. */
export const DEMO_GENERATOR = "Demo model";

const DURATION_S = 3;

/** An upload of one demo clip into a project; throws after `failAfterClips` uploads (the tests' crash in the middle). */
export function clipUploader(options: {
  api: SeedingRequest;
  clipsDir: string;
  log: (line: string) => void;
  failAfterClips?: number;
}) {
  const { api, clipsDir, log, failAfterClips } = options;
  let clipsUploaded = 0;
  return async (projectId: string, clip: (typeof CLIPS)[number], clipOptions: ClipUploadOptions = {}) => {
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
    log(`demo clip ${clip.path}`);
    clipsUploaded++;
    if (failAfterClips !== undefined && clipsUploaded >= failAfterClips) {
      throw new Error(
        `stopping after ${clipsUploaded} clip(s), as FRAMEJURY_DEMO_FAIL_AFTER_CLIPS asks (a test of the demo's clean-up)`,
      );
    }
  };
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
