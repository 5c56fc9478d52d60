import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as clipRoute } from "@/app/api/v1/clips/[token]/route";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { capabilitiesOf } from "./endpoint-capabilities";
import { countInAnswer, paddedProbeClip, PROBE_CLIP_BYTES } from "./endpoint-probe-video";
import { PROBE_CLIP } from "./probe-assets/probe-clip";
import { testEndpoint } from "./endpoint-test";
import { clipByUrlOf } from "../input-modes/video-file";
import { createEndpoint } from "./endpoints";
import { accessOfEndpoint } from "../../../testkit/testing/record-access";
import { projectAccess } from "../../authz/permissions";

/**
 * The probe's input modes against each stub mode (testkit/llm-stub/stub-video.ts): a server that takes everything,
 * one started for video (one image per request), one without video (OpenAI's refusal), and one whose frames and
 * bodies are limited, and one that takes clips by URL only. The app's clip route is served on a port of the test's
 * (APP_URL), so the stub fetches the probe's signed clip URL from the very route handler the app serves it with.
 */

let stub: StubServer;
let owner: Actor;
let projectId: string;
let app: http.Server;
const appUrl = process.env.APP_URL;
beforeAll(async () => {
  app = http.createServer((req, res) => {
    void clipRoute(new Request(`http://127.0.0.1${req.url}`)).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  process.env.APP_URL = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  stub = await startStubLlm();
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "Probe video" })).id;
});
afterAll(async () => {
  process.env.APP_URL = appUrl;
  await stub.close();
  await new Promise((resolve) => app.close(resolve));
});
beforeEach(() => stub.reset());

async function probe(model = "stub-vision") {
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: model,
    baseUrl: stub.baseURL,
    model,
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 30,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  const result = await testEndpoint(prisma, await accessOfEndpoint(prisma, owner, endpoint.id), endpoint.id);
  const stored = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
  expect(capabilitiesOf(stored.capabilities)).toEqual(result.capabilities);
  return result.capabilities!;
}

const videoRequests = () => stub.requests.filter((r) => r.videos.length > 0);

describe("the probe's input modes", () => {
  it("all: every mode accepted, up to 64 frames and a 4 MiB clip, and what the answer says it saw", async () => {
    const capabilities = await probe();
    expect(capabilities.inputModes).toEqual({
      images: { accepted: "yes", refusal: null, maxFrames: 16, maxBodyBytes: null, sawFrames: null },
      "video-frames": {
        accepted: "yes",
        refusal: null,
        maxFrames: 64,
        maxBodyBytes: expect.any(Number) as number,
        sawFrames: 4,
      },
      "video-file": {
        accepted: "yes",
        refusal: null,
        maxFrames: 4,
        maxBodyBytes: expect.any(Number) as number,
        sawFrames: 4,
        byUrl: "yes",
      },
    });
    // Data URLs were taken too, so clips go by URL only when they are too large for the body.
    expect(clipByUrlOf(capabilities)).toBe(false);
    // The largest clip's body: 4 MiB in base64, and more.
    expect(capabilities.inputModes!["video-file"].maxBodyBytes).toBeGreaterThan((4 * 1024 * 1024 * 4) / 3);
    // No body was refused: no limit found.
    expect(capabilities.maxBodyBytes).toBeNull();
    // The frames went as one JPEG list each (4, 16, 64), then the clip three times as a data URL and once by its
    // signed URL (fetched from the app), each sampled to 4 frames.
    expect(videoRequests().map((r) => r.videos)).toEqual([
      [{ form: "jpeg-frames", frames: 4, durationS: null, totalFrames: 4 }],
      [{ form: "jpeg-frames", frames: 16, durationS: null, totalFrames: 16 }],
      [{ form: "jpeg-frames", frames: 64, durationS: null, totalFrames: 64 }],
      ...[...PROBE_CLIP_BYTES, "url"].map(() => [{ form: "clip", frames: 4, durationS: 1, totalFrames: 4 }]),
    ]);
    // The stub fetched it from the app's clip route, which spent the URL.
    expect(await prisma.clipUrlFetch.count({ where: { videoId: "probe-clip" } })).toBeGreaterThanOrEqual(1);
  });

  it("images-only (no-video, like OpenAI): both video modes refused with the endpoint's words", async () => {
    stub.setVideoOptions({ mode: "no-video" });
    const { inputModes } = await probe();
    expect(inputModes!.images).toMatchObject({ accepted: "yes", maxFrames: 16 });
    for (const mode of ["video-frames", "video-file"] as const) {
      expect(inputModes![mode]).toMatchObject({ accepted: "no", maxFrames: null, sawFrames: null });
      expect(inputModes![mode].refusal).toMatch(/video_url is not supported/);
      expect(inputModes![mode].refusal!.length).toBeLessThanOrEqual(200);
    }
    // A refused mode is not asked again at a larger size; the clip by URL is refused too.
    expect(inputModes!["video-file"].byUrl).toBe("no");
    expect(videoRequests()).toHaveLength(0);
    expect(stub.requests.filter((r) => r.status === 400)).toHaveLength(3);
  });

  it("video-only (a vLLM server started for video): one image per request, every video mode accepted", async () => {
    const { inputModes, maxImages } = await probe("qwen-video-only");
    expect(maxImages).toBe(1);
    expect(inputModes!.images).toMatchObject({ accepted: "yes", maxFrames: 1 });
    expect(inputModes!["video-frames"]).toMatchObject({ accepted: "yes", maxFrames: 64, sawFrames: 4 });
    expect(inputModes!["video-file"]).toMatchObject({ accepted: "yes", sawFrames: 4 });
  });

  it("a server without vision refuses images, and its refusal is kept", async () => {
    stub.setVideoOptions({ mode: "no-video" });
    const { inputModes } = await probe("stub-text-only");
    expect(inputModes!.images.accepted).toBe("no");
    expect(inputModes!.images.refusal).toMatch(/does not take images/);
    expect(inputModes!["video-frames"].accepted).toBe("no");
  });

  it("finds the most frames a video part may carry and the largest body, and stops at the first refusal", async () => {
    stub.setVideoOptions({ maxVideoFrames: 16, maxBodyBytes: 2 * 1024 * 1024 });
    const capabilities = await probe();
    const frames = capabilities.inputModes!["video-frames"];
    expect(frames).toMatchObject({ accepted: "yes", maxFrames: 16, sawFrames: 4 });
    const file = capabilities.inputModes!["video-file"];
    expect(file.accepted).toBe("yes");
    // The 1 MiB clip went through; the 4 MiB one was refused (413), so 1 MiB's body is the largest found.
    expect(file.maxBodyBytes).toBeGreaterThan((1024 * 1024 * 4) / 3);
    expect(file.maxBodyBytes).toBeLessThan(2 * 1024 * 1024);
    expect(capabilities.maxBodyBytes).toBe(file.maxBodyBytes);
    // 4 and 16 frames, the refused 64; the clip, 1 MiB, the refused 4 MiB.
    expect(stub.requests.filter((r) => r.status === 400 || r.status === 413).map((r) => r.status)).toEqual([400, 413]);
  });
});

describe("the probe's clip by URL", () => {
  it("finds an endpoint that takes clips by URL only: the mode is accepted and every clip goes by URL", async () => {
    const capabilities = await probe("stub-vision-url-clips");
    expect(capabilities.inputModes!["video-file"]).toEqual({
      accepted: "yes",
      refusal: expect.stringMatching(/data: URL clips are not accepted/) as string,
      maxFrames: 4,
      maxBodyBytes: null,
      sawFrames: 4,
      byUrl: "yes",
    });
    expect(capabilities.notes).toContain(
      "Video file: the endpoint took the clip by URL only; every clip goes to it by a signed URL.",
    );
    expect(clipByUrlOf(capabilities)).toBe(true);
    // The URL served the probe's clip once: the stub read it whole.
    const fetched = videoRequests().at(-1)!;
    expect(fetched.videos).toEqual([{ form: "clip", frames: 4, durationS: 1, totalFrames: 4 }]);
  });

  it("does not try the URL form when the app cannot sign a URL, and says so", async () => {
    const secret = process.env.APP_SECRET;
    delete process.env.APP_SECRET;
    try {
      const capabilities = await probe();
      expect(capabilities.inputModes!["video-file"]).toMatchObject({ accepted: "yes", byUrl: null });
      expect(capabilities.notes).toContain(
        "Video file by URL: not tried, since the app has no APP_SECRET to sign a clip URL with.",
      );
    } finally {
      process.env.APP_SECRET = secret;
    }
  });
});

describe("the probe's clip and answers", () => {
  it("pads the clip with a trailing free box to the size asked (the stub reads it as the same 4 frames, above)", () => {
    const clipLength = Buffer.from(PROBE_CLIP.mp4Base64, "base64").length;
    const padded = paddedProbeClip(64 * 1024);
    expect(padded.length).toBe(64 * 1024);
    expect(padded.readUInt32BE(clipLength)).toBe(64 * 1024 - clipLength);
    expect(padded.toString("latin1", clipLength + 4, clipLength + 8)).toBe("free");
    expect(paddedProbeClip(0).length).toBe(clipLength);
  });

  it("reads a probe stored before input modes were probed as one without findings, not as never probed", () => {
    const older = {
      images: "yes",
      maxImages: 4,
      jsonMode: "json_schema",
      topLogprobs: true,
      usage: true,
      contextLength: null,
      latencyMs: 5,
      notes: [],
    };
    expect(capabilitiesOf(older)).toMatchObject({ maxImages: 4, inputModes: null, maxBodyBytes: null });
  });

  it("reads the number an answer names", () => {
    expect(countInAnswer("4")).toBe(4);
    expect(countInAnswer("<think>maybe 3</think>There are 16 frames.")).toBe(16);
    expect(countInAnswer("I cannot tell.")).toBeNull();
  });
});
