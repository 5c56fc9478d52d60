import { describe, expect, it } from "vitest";
import { readManifestText } from "./run-manifest-text";

const manifest = {
  format: "framejury-run-manifest",
  version: 1,
  task: { pipeline: "hallucination" },
  settings: { aggregation: "mean-max" },
  promptVersions: [{ templateId: "hallucination/static", id: "pv1", hash: "h" }],
  endpoint: { id: "e1", name: "vLLM", baseUrl: "http://gpu-1:8000/v1" },
  input: { mode: "video-frames" },
  videos: [{ id: "v1" }, { id: "v2" }],
};

describe("a manifest pasted into the run form", () => {
  it("says what it would run: task, endpoint, input mode, videos, edited prompts, settings", () => {
    const read = readManifestText(JSON.stringify(manifest));
    expect(read).toEqual({
      ok: true,
      manifest,
      summary: {
        pipeline: "hallucination",
        endpoint: "vLLM (http://gpu-1:8000/v1)",
        inputMode: "video-frames",
        videos: 2,
        promptVersions: 1,
        settings: '{"aggregation":"mean-max"}',
      },
    });
  });

  it("names what is wrong with text that is not a manifest", () => {
    expect(readManifestText("  ")).toEqual({ ok: false, error: "Paste a run manifest or choose its file." });
    expect(readManifestText("{oops")).toMatchObject({ ok: false, error: expect.stringMatching(/^Not JSON: /) });
    expect(readManifestText("[]")).toMatchObject({ ok: false, error: expect.stringContaining("Not a run manifest") });
    expect(readManifestText(JSON.stringify({ ...manifest, task: {} }))).toMatchObject({
      ok: false,
      error: expect.stringContaining("task.pipeline"),
    });
    expect(readManifestText(JSON.stringify({ ...manifest, videos: undefined }))).toMatchObject({
      ok: false,
      error: expect.stringContaining("videos"),
    });
  });
});
