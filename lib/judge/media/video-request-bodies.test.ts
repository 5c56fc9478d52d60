/**
 * The exact request bodies of each input mode, byte for byte, against what vLLM reads
 * (vllm/frontend/processing/multimodal/media/video.py, VideoMediaIO.load_base64 and load_bytes, at 055e47c2;
 * docs/features/multimodal_inputs.md "Video Inputs"):
 * - a `video_url` part whose URL is `data:video/jpeg;base64,` + the frames' base64 JPEGs joined by "," in order;
 * - `media_io_kwargs.video` with `num_frames` (else vLLM keeps only its default 32 of the list), `fps` (the source's
 *   rate), `frames_indices` (one integer per frame sent, its index in the source), `total_num_frames` (an integer ≥
 *   the frames sent) and `duration` (seconds);
 * - a clip as `data:video/mp4;base64,…` or an http(s) URL, with `num_frames` or `fps` for the server's sampling.
 */
import { describe, expect, it } from "vitest";
import { chatCompletionBody, chatCompletionPieces, type ChatRequest } from "../calls/llm-client";
import { clipDataVideo, clipUrlVideo, framesTiming, framesVideo } from "./video-parts";
import { signedClipUrl, verifyClipToken } from "./clip-urls";

const jpeg = (text: string) => `data:image/jpeg;base64,${Buffer.from(text).toString("base64")}`;

/** The body as the client sends it (the pieces, joined) — it must be the body's JSON exactly. */
function sentBody(request: ChatRequest): string {
  const sent = Buffer.concat(chatCompletionPieces(request)).toString("utf8");
  expect(sent).toBe(JSON.stringify(chatCompletionBody(request)));
  return sent;
}

const at = (timestampsS: number[]) => timestampsS.map((timestampS) => ({ timestampS }));

const base = { model: "Qwen/Qwen2.5-VL-7B-Instruct", system: null, text: "Judge.", temperature: 0 } as const;

describe("video-frames: the chosen frames as one video part with their timing", () => {
  it("joins the frames' JPEGs in order after data:video/jpeg;base64, and names their source indices, fps, count and duration", () => {
    const video = framesVideo(
      [
        { timestampS: 0, url: jpeg("AAA") },
        { timestampS: 2.5, url: jpeg("BBB") },
        { timestampS: 4.958333, url: jpeg("CCC") },
      ],
      { fps: 24, frameCount: 120 },
    );
    expect(sentBody({ ...base, images: [], video })).toBe(
      '{"model":"Qwen/Qwen2.5-VL-7B-Instruct","messages":[{"role":"user","content":[' +
        '{"type":"text","text":"Judge."},' +
        '{"type":"video_url","video_url":{"url":"data:video/jpeg;base64,QUFB,QkJC,Q0ND"}}]}],' +
        '"temperature":0,' +
        '"media_io_kwargs":{"video":{"num_frames":3,"fps":24,"frames_indices":[0,60,119],"total_num_frames":120,"duration":5}}}',
    );
  });

  it("puts the video part before a template's example images, and all of them before the text when images go first", () => {
    const video = framesVideo(
      [
        { timestampS: 0, url: jpeg("AAA") },
        { timestampS: 1, url: jpeg("BBB") },
      ],
      { fps: 2, frameCount: 4 },
    );
    const body = JSON.parse(
      sentBody({ ...base, images: [{ url: jpeg("EX"), detail: null }], video, imagesFirst: true }),
    ) as { messages: { content: unknown[] }[] };
    expect(body.messages[0]!.content).toEqual([
      { type: "video_url", video_url: { url: "data:video/jpeg;base64,QUFB,QkJC" } },
      { type: "image_url", image_url: { url: "data:image/jpeg;base64,RVg=" } },
      { type: "text", text: "Judge." },
    ]);
  });

  it("writes the times on a millisecond clock when the source's frame rate is unknown, so each frame keeps its true time", () => {
    expect(framesTiming(at([0, 0.5, 1.25]), { fps: null, frameCount: 30 })).toEqual({
      num_frames: 3,
      fps: 1000,
      frames_indices: [0, 500, 1250],
      total_num_frames: 1251,
      duration: 1.251,
    });
  });

  it("never names a total below the frames sent or an index past it (vLLM refuses the first)", () => {
    // A stored frame count shorter than the last frame's time says (a rounding of the container's count).
    expect(framesTiming(at([0, 4.2]), { fps: 24, frameCount: 100 })).toMatchObject({
      frames_indices: [0, 100],
      total_num_frames: 101,
      duration: 4.208333,
    });
    // Frames at one instant (a still clip's duplicates) still count as frames sent.
    expect(framesTiming(at([0, 0, 0]), { fps: 30, frameCount: null })).toMatchObject({
      frames_indices: [0, 0, 0],
      total_num_frames: 3,
    });
  });

  it("names each frame by the source frame it is: the one on screen at its time, or the index the call record gives", () => {
    // Frames sampled at half-frame times of a 30 fps clip: the picture at 37.5/30 s is frame 37 (frame 38 starts later).
    const times = Array.from({ length: 30 }, (_, i) => (i * 2.5) / 30);
    const timing = framesTiming(at(times), { fps: 30, frameCount: 80 });
    expect(timing.frames_indices).toEqual(times.map((_, i) => Math.floor(i * 2.5)));
    expect(timing.frames_indices[15]).toBe(37);
    // A time a hair before a frame's start (floating point) is still that frame.
    expect(framesTiming(at([1 / 30, 2 / 30 - 1e-9]), { fps: 30, frameCount: 80 }).frames_indices).toEqual([1, 2]);
    // The index the engine found from the video's frame times (a variable frame rate) is sent as it is.
    expect(framesTiming([{ timestampS: 3, videoFrame: 50 }], { fps: 15, frameCount: 70 }).frames_indices).toEqual([50]);
  });

  it("refuses a frame that is not a JPEG data URL (vLLM decodes each as image/jpeg)", () => {
    expect(() =>
      framesVideo([{ timestampS: 0, url: "data:image/png;base64,AAAA" }], { fps: 24, frameCount: 1 }),
    ).toThrow(/not a JPEG data URL/);
  });
});

describe("video-file: the clip itself, with the sampling asked", () => {
  it("sends the clip as a data:video/mp4;base64 URL asking num_frames", () => {
    const video = clipDataVideo(
      { base64: Buffer.from("mp4!").toString("base64"), contentType: "video/mp4" },
      { numFrames: 16 },
    );
    expect(sentBody({ ...base, images: [], video })).toBe(
      '{"model":"Qwen/Qwen2.5-VL-7B-Instruct","messages":[{"role":"user","content":[' +
        '{"type":"text","text":"Judge."},' +
        '{"type":"video_url","video_url":{"url":"data:video/mp4;base64,bXA0IQ=="}}]}],' +
        '"temperature":0,"media_io_kwargs":{"video":{"num_frames":16}}}',
    );
  });

  it("names a clip stored under another video type by that type, and one stored under no video type as MP4", () => {
    expect(clipDataVideo({ base64: "AA==", contentType: "video/webm" }, { fps: 1 }).url).toBe(
      "data:video/webm;base64,AA==",
    );
    expect(clipDataVideo({ base64: "AA==", contentType: "application/octet-stream" }, { fps: 1 }).url).toBe(
      "data:video/mp4;base64,AA==",
    );
  });

  it("sends the app's signed clip URL asking fps; the URL names the video and run and expires after its time", () => {
    const now = new Date("2026-11-27T22:00:00Z");
    const url = signedClipUrl("video-1", "run-1", 300, now);
    expect(url).not.toBeNull();
    const video = clipUrlVideo(url!, { fps: 2 });
    expect(sentBody({ ...base, images: [], video })).toBe(
      '{"model":"Qwen/Qwen2.5-VL-7B-Instruct","messages":[{"role":"user","content":[' +
        '{"type":"text","text":"Judge."},' +
        `{"type":"video_url","video_url":{"url":${JSON.stringify(url)}}}]}],` +
        '"temperature":0,"media_io_kwargs":{"video":{"fps":2}}}',
    );
    const token = url!.slice(url!.lastIndexOf("/") + 1);
    expect(verifyClipToken(token, new Date(now.getTime() + 299_000))).toMatchObject({
      v: "video-1",
      r: "run-1",
    });
    expect(() => verifyClipToken(token, new Date(now.getTime() + 301_000))).toThrow();
  });
});

describe("images: unchanged", () => {
  it("sends one image_url part per frame and no media_io_kwargs", () => {
    const body = sentBody({ ...base, images: [{ url: jpeg("AAA"), detail: "low" }], video: null });
    expect(body).toBe(
      '{"model":"Qwen/Qwen2.5-VL-7B-Instruct","messages":[{"role":"user","content":[' +
        '{"type":"text","text":"Judge."},' +
        '{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,QUFB","detail":"low"}}]}],"temperature":0}',
    );
  });
});
