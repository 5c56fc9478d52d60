import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  chooseFfmpegTools,
  ffmpegChoiceFromEnvironment,
  nativeTools,
  NativeFfmpegMissingError,
  type FfmpegTools,
} from "./ffmpeg-tools";
import { extractFrameSetFromFile, type ExtractedFrames } from "./native-extraction";

const PARAMETERS = { mode: "density-peaks" } as const;
// The shared sample clips (real generated videos, 1280×720, 8 s) when this machine has them: copied to a
// temporary folder, never into the repository. Generated clips are used either way.
const SAMPLES = "/work/shared/samples";

function ffmpeg(args: string[]) {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);
}

const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
});

/** A PATH with every folder except those holding ffmpeg or ffprobe. */
function pathWithoutFfmpeg(): string {
  return (savedPath ?? "")
    .split(path.delimiter)
    .filter((dir) => dir && !fs.existsSync(path.join(dir, "ffmpeg")) && !fs.existsSync(path.join(dir, "ffprobe")))
    .join(path.delimiter);
}

const summary = (frames: ExtractedFrames) => ({
  keyFrameIndices: frames.keyFrameIndices,
  count: frames.manifest.length,
  keyFrameTimestamps: frames.manifest.filter((entry) => entry.isKeyFrame).map((entry) => entry.timestampS),
  timestamps: frames.manifest.map((entry) => entry.timestampS),
  clusters: frames.manifest.map((entry) => entry.cluster),
});

describe("headless frame extraction without native ffmpeg (the ffmpeg.wasm core in Node)", () => {
  let dir: string;
  const clips: string[] = [];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-wasm-extraction-"));
    if (fs.existsSync(SAMPLES)) {
      for (const name of fs
        .readdirSync(SAMPLES)
        .filter((n) => n.endsWith(".mp4"))
        .sort()) {
        fs.copyFileSync(path.join(SAMPLES, name), path.join(dir, name));
        clips.push(path.join(dir, name));
      }
    }
    // 720 lines (BT.709 for untagged video) and below (BT.601), with motion and colour changes so density
    // peaks has something to choose between.
    ffmpeg([
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=1280x720:rate=24:duration=4",
      "-vf",
      "hue=H=t*1.5,format=yuv420p",
      "-c:v",
      "libx264",
      "-g",
      "30",
      path.join(dir, "generated-720p.mp4"),
    ]);
    ffmpeg([
      "-f",
      "lavfi",
      "-i",
      "testsrc=size=480x360:rate=25:duration=4",
      "-vf",
      "hue=s=1+sin(t*2),noise=alls=12:allf=t,format=yuv420p",
      "-c:v",
      "libx264",
      path.join(dir, "generated-360p.mp4"),
    ]);
    clips.push(path.join(dir, "generated-720p.mp4"), path.join(dir, "generated-360p.mp4"));
    fs.writeFileSync(
      path.join(dir, "cut-short.mp4"),
      fs.readFileSync(path.join(dir, "generated-360p.mp4")).subarray(0, 6000),
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("with ffmpeg stripped from PATH, auto picks ffmpeg.wasm, and it gives native ffmpeg's key frames, timestamps and frame count", async () => {
    const native = new Map<string, ReturnType<typeof summary>>();
    for (const clip of clips) {
      const frames = await extractFrameSetFromFile(clip, PARAMETERS, { tools: nativeTools });
      expect(frames.decoder).toBe("ffmpeg");
      native.set(clip, summary(frames));
    }

    process.env.PATH = pathWithoutFfmpeg();
    const tools = chooseFfmpegTools("auto");
    expect(tools.decoder).toBe("ffmpeg.wasm");
    expect(() => chooseFfmpegTools("native")).toThrow(NativeFfmpegMissingError);
    for (const clip of clips) {
      const frames = await extractFrameSetFromFile(clip, PARAMETERS, { tools });
      expect(frames.decoder).toBe("ffmpeg.wasm");
      expect({ clip: path.basename(clip), ...summary(frames) }).toEqual({
        clip: path.basename(clip),
        ...native.get(clip)!,
      });
      expect(frames.keyFrameIndices.length).toBeGreaterThan(1);
      // Every stored frame is a JPEG.
      for (const jpeg of frames.files.values()) expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    }
  }, 300_000);

  it("a corrupt file gives a clear error, and the core extracts the next file after it", async () => {
    const tools = chooseFfmpegTools("wasm");
    expect(tools.decoder).toBe("ffmpeg.wasm");
    await expect(extractFrameSetFromFile(path.join(dir, "cut-short.mp4"), PARAMETERS, { tools })).rejects.toThrow(
      /damaged or truncated/,
    );
    const after = await extractFrameSetFromFile(path.join(dir, "generated-360p.mp4"), PARAMETERS, { tools });
    expect(after.manifest.length).toBeGreaterThan(0);
  }, 120_000);

  it("a cancel stops an ffmpeg.wasm run part-way (its thread is ended), and the next extraction works", async () => {
    const tools = chooseFfmpegTools("wasm");
    const controller = new AbortController();
    const clip = path.join(dir, "generated-720p.mp4");
    // Aborts 50 ms into the decoding run (a 4 s 720p clip takes far longer), not before it starts.
    const abortingTools: FfmpegTools = {
      ...tools,
      withFile: (filePath, fn) =>
        tools.withFile(filePath, (staged) =>
          fn({
            ...staged,
            run: (tool, args, signal) => {
              const result = staged.run(tool, args, signal);
              if (tool === "ffmpeg") setTimeout(() => controller.abort(), 50);
              return result;
            },
          }),
        ),
    };
    await expect(
      extractFrameSetFromFile(clip, PARAMETERS, { tools: abortingTools, signal: controller.signal }),
    ).rejects.toMatchObject({ code: "cancelled" });
    const after = await extractFrameSetFromFile(clip, PARAMETERS, { tools });
    expect(after.decoder).toBe("ffmpeg.wasm");
    expect(after.manifest.length).toBeGreaterThan(0);
  }, 120_000);

  it("FRAMEJURY_FFMPEG chooses (wasm even when native ffmpeg is installed); an unknown value is an error", () => {
    expect(ffmpegChoiceFromEnvironment(undefined)).toBe("auto");
    expect(ffmpegChoiceFromEnvironment(" Wasm ")).toBe("wasm");
    expect(chooseFfmpegTools(ffmpegChoiceFromEnvironment("wasm")).decoder).toBe("ffmpeg.wasm");
    expect(chooseFfmpegTools(ffmpegChoiceFromEnvironment("native")).decoder).toBe("ffmpeg");
    expect(() => ffmpegChoiceFromEnvironment("static")).toThrow(/FRAMEJURY_FFMPEG must be one of auto, native, wasm/);
  });
});
