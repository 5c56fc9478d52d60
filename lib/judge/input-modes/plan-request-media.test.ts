import { describe, expect, it } from "vitest";
import { responseCacheKey } from "../engine/cache-key";
import type { ClipRef, FrameRef } from "../../task-modules/pipeline-types";
import type { EndpointCapabilities } from "../endpoints/endpoint-capabilities";
import {
  frameLimitOf,
  planOfRecord,
  planRequestMedia,
  sawOfPlan,
  videoCachePart,
  videoPartNote,
} from "./plan-request-media";
import { clipByUrlOf, clipGoesByUrl, DEFAULT_MAX_CLIP_BODY_BYTES } from "./video-file";

const frame = (index: number): FrameRef => ({
  id: `f${index}`,
  index,
  timestampS: index / 2,
  isKeyFrame: false,
  cluster: null,
  storageKey: `k${index}`,
  sha256: `${index}`.repeat(64).slice(0, 64),
});
const clip: ClipRef = {
  storageKey: "v.mp4",
  sha256: "a".repeat(64),
  sizeBytes: 1000,
  contentType: "video/mp4",
  durationS: 2,
};
const own = [frame(0), frame(1), frame(2)];
const example = frame(9);
const plan = (over: Partial<Parameters<typeof planRequestMedia>[0]>) =>
  planRequestMedia({
    runMode: "video-frames",
    scope: "cluster",
    input: { frames: own },
    exampleFrames: [example],
    clip,
    batch: false,
    capabilities: null,
    ...over,
  });

/** A probe's findings: `maxImages` images a request, and a video part of at most `videoFrames` frames. */
const probed = (maxImages: number, videoFrames: number | null): EndpointCapabilities => ({
  images: "yes",
  maxImages,
  jsonMode: null,
  topLogprobs: null,
  usage: null,
  contextLength: null,
  latencyMs: 1,
  notes: [],
  inputModes: {
    images: { accepted: "yes", refusal: null, maxFrames: maxImages, maxBodyBytes: null, sawFrames: null },
    "video-frames": { accepted: "yes", refusal: null, maxFrames: videoFrames, maxBodyBytes: null, sawFrames: null },
    "video-file": { accepted: "yes", refusal: null, maxFrames: 4, maxBodyBytes: null, sawFrames: null },
  },
  maxBodyBytes: null,
});

describe("how a step's frames go in each input mode", () => {
  it("images: every frame an image, the step's own first", () => {
    expect(plan({ runMode: "images" })).toEqual({
      mode: "images",
      videoFrames: [],
      clip: null,
      imageFrames: [...own, example],
      ownImages: 3,
      grid: false,
    });
  });

  it("images past the endpoint's image limit go as one grid picture, the step's and its examples' alike; never in a batch line", () => {
    expect(plan({ runMode: "images", capabilities: probed(4, null) }).grid).toBe(false);
    expect(plan({ runMode: "images", capabilities: probed(3, null) })).toMatchObject({ mode: "images", grid: true });
    expect(plan({ runMode: "images", capabilities: probed(3, null), batch: true }).grid).toBe(false);
    // A video part is not a picture: only the example after it counts.
    expect(plan({ capabilities: probed(1, null) })).toMatchObject({ mode: "video-frames", grid: false });
  });

  it("video-frames: the step's frames one video, its template's example frames images after it", () => {
    expect(plan({})).toMatchObject({
      mode: "video-frames",
      videoFrames: own,
      clip: null,
      imageFrames: [example],
      ownImages: 0,
    });
  });

  it("one frame, a step that asks for stills, and a batch line stay images in a video run", () => {
    expect(plan({ input: { frames: [frame(0)] } }).mode).toBe("images");
    expect(plan({ input: { frames: own, sendAs: "images" } }).mode).toBe("images");
    expect(plan({ batch: true }).mode).toBe("images");
  });

  it("video-file: a step over the whole video sends the clip asking its frame count; a cluster sends its frames; no clip known, frames", () => {
    expect(plan({ runMode: "video-file", scope: "video" })).toMatchObject({
      mode: "video-file",
      videoFrames: [],
      clip: { ref: clip, sampling: { numFrames: 3 } },
    });
    expect(plan({ runMode: "video-file", scope: "item" }).mode).toBe("video-file");
    expect(plan({ runMode: "video-file", scope: "cluster" }).mode).toBe("video-frames");
    expect(plan({ runMode: "video-file", scope: "video", clip: null }).mode).toBe("video-frames");
  });

  it("a clip goes by URL when its data URL would not fit the endpoint's largest body", () => {
    expect(clipGoesByUrl({ ...clip, sizeBytes: 3000 }, { maxBodyBytes: 4100 })).toBe(false);
    expect(clipGoesByUrl({ ...clip, sizeBytes: 3000 }, { maxBodyBytes: 4000 })).toBe(true);
    expect(
      clipGoesByUrl({ ...clip, sizeBytes: (DEFAULT_MAX_CLIP_BODY_BYTES / 4) * 3 + 3 }, { maxBodyBytes: null }),
    ).toBe(true);
    expect(
      clipGoesByUrl(clip, { maxBodyBytes: null, inputModes: { "video-file": { byUrl: "yes", maxBodyBytes: null } } }),
    ).toBe(true);
  });

  it("every clip goes by URL to an endpoint whose probe found it took the URL and no data URL", () => {
    const file = (byUrl: string | null | undefined, maxBodyBytes: number | null) => ({
      inputModes: { "video-file": { byUrl, maxBodyBytes } },
    });
    expect(clipByUrlOf(file("yes", null))).toBe(true);
    expect(clipByUrlOf(file("yes", 5_000_000))).toBe(false);
    expect(clipByUrlOf(file("no", null))).toBe(false);
    expect(clipByUrlOf(file(undefined, null))).toBe(false);
    expect(clipByUrlOf({ inputModes: null })).toBe(false);
    expect(clipByUrlOf(null)).toBe(false);
  });
});

describe("the line a request showing the video as video adds to its prompt", () => {
  it("names the video part's frames and times, or the clip, and is absent for images", () => {
    expect(videoPartNote(plan({}))).toBe(
      "(The 3 frames are sent as one video, in order, from 0.00 s to 1.00 s: where this prompt speaks of images or frames, it means the frames of this video.)",
    );
    expect(videoPartNote(plan({ runMode: "video-file", scope: "video" }))).toContain("sent as one video clip");
    expect(videoPartNote(plan({ runMode: "images" }))).toBeNull();
  });
});

describe("the response-cache key of each mode", () => {
  const parts = {
    model: "m",
    templateHash: "t",
    text: "x",
    frameSha256s: own.map((f) => f.sha256),
    temperature: 0,
    imageDetail: "low",
    responseFormat: null,
  };
  it("is the key made before input modes existed for an images request", () => {
    expect(responseCacheKey({ ...parts, inputMode: "images", video: null })).toBe(responseCacheKey(parts));
  });
  it("differs between the same frames as images, as a video, and as a video with other timing, and for the clip", () => {
    const frames = plan({});
    const keys = [
      responseCacheKey({ ...parts, inputMode: "images" }),
      responseCacheKey({
        ...parts,
        inputMode: "video-frames",
        video: videoCachePart(frames, { fps: 24, frameCount: 48 }),
      }),
      responseCacheKey({
        ...parts,
        inputMode: "video-frames",
        video: videoCachePart(frames, { fps: 30, frameCount: 60 }),
      }),
      responseCacheKey({
        ...parts,
        inputMode: "video-file",
        video: videoCachePart(plan({ runMode: "video-file", scope: "video" }), { fps: 24, frameCount: 48 }),
      }),
    ];
    expect(new Set(keys).size).toBe(4);
  });
});

describe("the frames a step may choose in each mode", () => {
  const finding = (maxFrames: number | null, accepted: "yes" | "no" = "yes") => ({
    accepted,
    refusal: null,
    maxFrames,
    maxBodyBytes: null,
    sawFrames: null,
  });
  const capabilities = (maxImages: number, videoFrames: ReturnType<typeof finding>) => ({
    images: "yes" as const,
    maxImages,
    jsonMode: null,
    topLogprobs: null,
    usage: null,
    contextLength: null,
    latencyMs: 1,
    notes: [],
    inputModes: { images: finding(maxImages), "video-frames": videoFrames, "video-file": finding(4) },
    maxBodyBytes: null,
  });

  it("is the image limit in images, the video part limit in video-frames, none in video-file", () => {
    // A vLLM server started for video: one image a request, 64 frames as a video.
    const forVideo = capabilities(1, finding(64));
    expect(frameLimitOf("images", forVideo)).toBe(1);
    expect(frameLimitOf("video-frames", forVideo)).toBeNull();
    expect(frameLimitOf("video-file", forVideo)).toBeNull();
    expect(frameLimitOf("video-frames", capabilities(16, finding(16)))).toBe(16);
    expect(frameLimitOf("video-frames", capabilities(16, finding(null, "no")))).toBeNull();
    expect(frameLimitOf("video-frames", null)).toBeNull();
  });

  it("sends a step's frames as images when they are more than the endpoint took in one video part", () => {
    expect(plan({ capabilities: probed(16, 3) }).mode).toBe("video-frames");
    expect(plan({ capabilities: probed(16, 2) })).toMatchObject({
      mode: "images",
      imageFrames: [...own, example],
      ownImages: 3,
    });
    // A clip is sampled by the server: the video part limit is not its.
    expect(plan({ runMode: "video-file", scope: "video", capabilities: probed(16, 2) }).mode).toBe("video-file");
  });
});

describe("a call's plan read back from its record (the replay's)", () => {
  it("is the plan the request was built from, in every mode", () => {
    const context = { fps: 2, frameCount: 8, frameTimesS: null };
    const plans = [
      plan({ runMode: "images" }),
      plan({ runMode: "images", capabilities: probed(2, null) }),
      plan({}),
      // (A clip's record keeps no pictures after the clip: this one has none.)
      plan({ runMode: "video-file", scope: "video", exampleFrames: [] }),
    ];
    for (const planned of plans) {
      const saw = sawOfPlan(planned, context);
      const byId = new Map([...own, example].map((f) => [f.id, f]));
      const read = planOfRecord({
        saw,
        sent: { detail: "low", imageMaxSide: null, grid: planned.grid, videoFrames: planned.videoFrames.length },
        frames: saw.frames.map((f) => byId.get(f.frameId)!),
        clip: saw.clip ? clip : null,
      });
      const ids = (frames: FrameRef[]) => frames.map((f) => f.id);
      expect({
        mode: read.mode,
        videoFrames: ids(read.videoFrames),
        images: ids(read.imageFrames),
        sampling: read.clip?.sampling ?? null,
        grid: read.grid,
      }).toEqual({
        mode: planned.mode,
        videoFrames: ids(planned.videoFrames),
        images: ids(planned.imageFrames),
        sampling: planned.clip?.sampling ?? null,
        grid: planned.grid,
      });
    }
  });
});
