import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PROBE_CLIP } from "@/lib/judge/endpoints/probe-assets/probe-clip";
import { probeJpegFrames } from "@/lib/judge/endpoints/probe-assets/probe-frames";

/** vLLM's JPEG-list video URL of the frames, as the judge sends them (lib/judge/media/video-parts.ts). */
const jpegListVideoUrl = (frames: readonly string[]) => `data:video/jpeg;base64,${frames.join(",")}`;
import { solidColourDataUrl } from "@/lib/judge/endpoints/test-image";
import { startStubLlm, type StubServer } from "./stub-server";
import { STUB_TOKENS } from "./stub-video";

/** A 0.1 s AAC tone in an MP4: a clip with no video stream (made with ffmpeg's sine source). */
const AUDIO_ONLY_MP4 = Buffer.from(
  "AAAAHGZ0eXBpc29tAAACAGlzb21pc28ybXA0MQAAAAhmcmVlAAABXG1kYXTeAgBMYXZjNTkuMzcuMTAwAAKglxXK59Z7da4ucSS1" +
    "wsfT6fS+/fVVVs+U0xcePH5fKbLFx48eOXLli48eMURESEVRRFwBOIzayNolbJWyVc/z11x/9a/frjX/Hj+fPGv7+/8+eNBv9bR0" +
    "RjELoEywhZ+QNxZRxGv5DX8vkB9KITYS7/CFWGCComTxc88X0nVxi+nOxy8Q1FFFBuABOuuK7xz3+z9/b4tw4aXqruB3P7503Zsx" +
    "s/uQyfAGf3AyfBhn94R8fBh7+5D4+DD39y4BOkuS7e89f2/8tXr2cNVxV3pYAAAAAMFAAAAGGB4efXAAMPGHu4gAU9oe7wABhx4e" +
    "24gAYcP4ATiNsspbI2iVDPH7+eL/17/XzrX/G/i70JKvtPLQI50Y63yWyVmBiswMVymcGZbnZsC67hfVUIxh6kP5H8h/L1Gw66zl" +
    "FF8p+AEYgbRwAAADJ21vb3YAAABsbXZoZAAAAAAAAAAAAAAAAAAAA+gAAABkAAEAAAEAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAA" +
    "AAAAAQAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIAAAJRdHJhawAAAFx0a2hkAAAAAwAAAAAA" +
    "AAAAAAAAAQAAAAAAAABkAAAAAAAAAAAAAAABAQAAAAABAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAA" +
    "AAAAJGVkdHMAAAAcZWxzdAAAAAAAAAABAAAAZAAABAAAAQAAAAAByW1kaWEAAAAgbWRoZAAAAAAAAAAAAAAAAAAArEQAABU6VcQA" +
    "AAAAAC1oZGxyAAAAAAAAAABzb3VuAAAAAAAAAAAAAAAAU291bmRIYW5kbGVyAAAAAXRtaW5mAAAAEHNtaGQAAAAAAAAAAAAAACRk" +
    "aW5mAAAAHGRyZWYAAAAAAAAAAQAAAAx1cmwgAAAAAQAAAThzdGJsAAAAfnN0c2QAAAAAAAAAAQAAAG5tcDRhAAAAAAAAAAEAAAAA" +
    "AAAAAAACABAAAAAArEQAAAAAADZlc2RzAAAAAAOAgIAlAAEABICAgBdAFQAAAAAAVjoAAFY6BYCAgAUSCFblAAaAgIABAgAAABRi" +
    "dHJ0AAAAAAAAVjoAAFY6AAAAIHN0dHMAAAAAAAAAAgAAAAUAAAQAAAAAAQAAAToAAAAcc3RzYwAAAAAAAAABAAAAAQAAAAYAAAAB" +
    "AAAALHN0c3oAAAAAAAAAAAAAAAYAAABFAAAAVwAAADMAAAA3AAAASQAAAAUAAAAUc3RjbwAAAAAAAAABAAAALAAAABpzZ3BkAQAA" +
    "AHJvbGwAAAACAAAAAf//AAAAHHNiZ3AAAAAAcm9sbAAAAAEAAAAGAAAAAQAAAGJ1ZHRhAAAAWm1ldGEAAAAAAAAAIWhkbHIAAAAA" +
    "AAAAAG1kaXJhcHBsAAAAAAAAAAAAAAAALWlsc3QAAAAlqXRvbwAAAB1kYXRhAAAAAQAAAABMYXZmNTkuMjcuMTAw",
  "base64",
);

let stub: StubServer;
let clipServer: http.Server;
let clipBase: string;
let clipFetches = 0;

beforeAll(async () => {
  stub = await startStubLlm();
  // The app's signed clip URL stand-in: serves the probe clip, or a 410 as a used URL.
  clipServer = http.createServer((req, res) => {
    clipFetches += 1;
    if (req.url === "/clip.mp4") {
      const body = Buffer.from(PROBE_CLIP.mp4Base64, "base64");
      res.writeHead(200, { "content-type": "video/mp4", "content-length": body.length });
      return res.end(body);
    }
    res.writeHead(410, { "content-type": "application/json" });
    res.end('{"error":{"message":"This clip URL was already used."}}');
  });
  await new Promise<void>((resolve) => clipServer.listen(0, "127.0.0.1", resolve));
  clipBase = `http://127.0.0.1:${(clipServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await stub.close();
  await new Promise((resolve) => clipServer.close(resolve));
});
beforeEach(() => stub.reset());

const QUESTION = "How many frames does this video have? Answer with a number.";

async function post(parts: unknown[], extra: Record<string, unknown> = {}, model = "stub-vision") {
  const response = await fetch(`${stub.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model,
      messages: [{ role: "user", content: [{ type: "text", text: QUESTION }, ...parts] }],
      ...extra,
    }),
  });
  return {
    status: response.status,
    json: (await response.json()) as {
      choices?: { message: { content: string } }[];
      usage?: { prompt_tokens: number };
      error?: { message: string; type: string };
    },
  };
}

const textTokens = Math.ceil(QUESTION.length / STUB_TOKENS.charsPerToken);
const video = (url: string) => ({ type: "video_url", video_url: { url } });

describe("stub LLM video parts", () => {
  it("decodes a JPEG-list video_url: each frame is an image its rules see, in order, 128 tokens each", async () => {
    const frames = probeJpegFrames(5);
    const answer = await post([video(jpegListVideoUrl(frames))]);
    expect(answer.status).toBe(200);
    expect(answer.json.choices![0]!.message.content).toBe("5");
    expect(answer.json.usage!.prompt_tokens).toBe(textTokens + 5 * STUB_TOKENS.perVideoFrame);
    expect(stub.requests[0]!.videos).toEqual([{ form: "jpeg-frames", frames: 5, durationS: null, totalFrames: 5 }]);
    expect(stub.requests[0]!.imageCount).toBe(5);
  });

  it("counts an image part and a video part apart in usage", async () => {
    const answer = await post([
      { type: "image_url", image_url: { url: solidColourDataUrl("red", 16) } },
      video(jpegListVideoUrl(probeJpegFrames(2))),
    ]);
    expect(answer.json.usage!.prompt_tokens).toBe(textTokens + STUB_TOKENS.perImage + 2 * STUB_TOKENS.perVideoFrame);
  });

  it("refuses a JPEG list with a frame that is not a JPEG", async () => {
    const answer = await post([video(`data:video/jpeg;base64,${probeJpegFrames(1)[0]},aGVsbG8=`)]);
    expect(answer.status).toBe(400);
    expect(answer.json.error!.message).toMatch(/Frame 1 of the video_url is not a JPEG/);
  });

  it("reads an MP4 data URL: its frames sampled as asked, its duration in seconds", async () => {
    const url = `data:video/mp4;base64,${PROBE_CLIP.mp4Base64}`;
    const all = await post([video(url)]);
    expect(all.json.choices![0]!.message.content).toBe(String(PROBE_CLIP.frames));
    expect(stub.requests[0]!.videos).toEqual([
      { form: "clip", frames: PROBE_CLIP.frames, durationS: PROBE_CLIP.durationS, totalFrames: PROBE_CLIP.frames },
    ]);
    expect(all.json.usage!.prompt_tokens).toBe(
      textTokens + PROBE_CLIP.frames * STUB_TOKENS.perVideoFrame + 1 * STUB_TOKENS.perVideoSecond,
    );
    const two = await post([video(url)], { media_io_kwargs: { video: { num_frames: 2 } } });
    expect(two.json.choices![0]!.message.content).toBe("2");
    const byRate = await post([video(url)], { mm_processor_kwargs: { fps: 3 } });
    expect(byRate.json.choices![0]!.message.content).toBe("3");
  });

  it("refuses a clip with no video stream, and bytes that are no container", async () => {
    const audio = await post([video(`data:video/mp4;base64,${AUDIO_ONLY_MP4.toString("base64")}`)]);
    expect(audio.status).toBe(400);
    expect(audio.json.error!.message).toMatch(/no video stream|could not be read/);
    const junk = await post([video(`data:video/mp4;base64,${Buffer.from("not a video").toString("base64")}`)]);
    expect(junk.status).toBe(400);
  });

  it("fetches an http(s) video_url, and refuses with the fetch's status when the URL answers an error", async () => {
    const fetched = await post([video(`${clipBase}/clip.mp4`)]);
    expect(fetched.status).toBe(200);
    expect(fetched.json.choices![0]!.message.content).toBe(String(PROBE_CLIP.frames));
    const before = clipFetches;
    const used = await post([video(`${clipBase}/used`)]);
    expect(clipFetches).toBe(before + 1);
    expect(used.status).toBe(400);
    expect(used.json.error!.message).toMatch(/Failed to fetch the video_url: HTTP 410/);
  });

  it("no-video mode (OpenAI): any video_url part is a 400 invalid_request_error; images still pass", async () => {
    stub.setVideoOptions({ mode: "no-video" });
    const refused = await post([video(jpegListVideoUrl(probeJpegFrames(2)))]);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ type: "invalid_request_error" });
    expect(refused.json.error!.message).toMatch(/video_url is not supported/);
    const image = await post([{ type: "image_url", image_url: { url: solidColourDataUrl("blue", 16) } }]);
    expect(image.status).toBe(200);
    // The model name picks the mode too.
    stub.reset();
    expect((await post([video(jpegListVideoUrl(probeJpegFrames(1)))], {}, "qwen-no-video")).status).toBe(400);
  });

  it("video-only mode (vLLM started for video): more than one image part is a 400; videos pass", async () => {
    stub.setVideoOptions({ mode: "video-only" });
    const images = [solidColourDataUrl("red", 16), solidColourDataUrl("green", 16)].map((url) => ({
      type: "image_url",
      image_url: { url },
    }));
    const refused = await post(images);
    expect(refused.status).toBe(400);
    expect(refused.json.error!.message).toMatch(/At most 1 image\(s\)/);
    expect((await post(images.slice(0, 1))).status).toBe(200);
    expect((await post([video(jpegListVideoUrl(probeJpegFrames(8)))])).status).toBe(200);
  });

  it("limits the frames per video and the body size when told, saying so", async () => {
    stub.setVideoOptions({ maxVideoFrames: 4 });
    expect((await post([video(jpegListVideoUrl(probeJpegFrames(4)))])).status).toBe(200);
    const many = await post([video(jpegListVideoUrl(probeJpegFrames(5)))]);
    expect(many.status).toBe(400);
    expect(many.json.error!.message).toMatch(/5 frames; at most 4/);
    stub.setVideoOptions({ maxVideoFrames: null, maxBodyBytes: 2000 });
    const large = await post([video(jpegListVideoUrl(probeJpegFrames(16)))]);
    expect(large.status).toBe(413);
    expect(large.json.error!.message).toMatch(/Request body too large/);
    expect(stub.requests.at(-1)!.bodyBytes).toBeGreaterThan(2000);
  });

  it("takes its mode from the control route (a bad body is a 400) and, after a reset, as the server was started", async () => {
    const control = (body: unknown) =>
      fetch(`${stub.url}/__stub/video-options`, { method: "POST", body: JSON.stringify(body) });
    expect((await control({ mode: "sometimes" })).status).toBe(400);
    expect((await control({ mode: "no-video" })).status).toBe(200);
    expect((await post([video(jpegListVideoUrl(probeJpegFrames(1)))])).status).toBe(400);
    await fetch(`${stub.url}/__stub/reset`, { method: "POST" });
    expect((await post([video(jpegListVideoUrl(probeJpegFrames(1)))])).status).toBe(200);

    const started = await startStubLlm({ video: { mode: "no-video" } });
    try {
      started.setVideoOptions({ mode: "all" });
      started.reset();
      const response = await fetch(`${started.baseURL}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({
          model: "stub-vision",
          messages: [{ role: "user", content: [video(jpegListVideoUrl(probeJpegFrames(1)))] }],
        }),
      });
      expect(response.status).toBe(400);
    } finally {
      await started.close();
    }
  });
});
