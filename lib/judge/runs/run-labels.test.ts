import { describe, expect, it } from "vitest";
import { distinctRunLabels, runSettingWords, type RunLabelParts } from "./run-labels";
import { runDate, runName } from "../../run-records/run-name";
import { BUILT_IN_DECLARATIONS } from "../../tasks/registry";

const run = (
  id: string,
  createdAt: string,
  settings: Record<string, string>,
  judge: Partial<RunLabelParts> = {},
): RunLabelParts => ({
  id,
  pipeline: "hallucination",
  endpointName: "Stub",
  model: "stub-vision",
  createdAt,
  settings,
  ...judge,
});

describe("labels of runs listed together (issue 38 §5.9)", () => {
  it("tell apart two runs that runName names the same: the time to the second and the setting that differs", () => {
    const a = run("a", "2026-11-23T14:05:07Z", { aggregation: "mean", temperature: "0" });
    const b = run("b", "2026-11-23T14:05:41Z", { aggregation: "max", temperature: "0" });
    // The bug: the picker showed runName, the same for both.
    expect(runName(a, BUILT_IN_DECLARATIONS)).toBe(runName(b, BUILT_IN_DECLARATIONS));
    const labels = distinctRunLabels([a, b], BUILT_IN_DECLARATIONS);
    expect(labels.get("a")).toBe("Hallucination · stub-vision @ Stub · 23 Nov 2026 14:05:07 · aggregation mean");
    expect(labels.get("b")).toBe("Hallucination · stub-vision @ Stub · 23 Nov 2026 14:05:41 · aggregation max");
  });

  it("name a setting one run has and another lacks, edited prompts against the shipped ones, and every judge", () => {
    const shipped = run("a", "2026-11-23T14:05:07Z", {});
    const edited = run(
      "b",
      "2026-11-23T14:06:00Z",
      { "prompt hallucination/inconsistency": "edited 0a1b2c3d", batch: "yes" },
      { endpointName: "lab vLLM", model: "qwen2.5-vl" },
    );
    const labels = distinctRunLabels([shipped, edited], BUILT_IN_DECLARATIONS);
    expect(labels.get("a")).toBe(
      "Hallucination · stub-vision @ Stub · 23 Nov 2026 14:05:07 · batch no, prompt hallucination/inconsistency shipped",
    );
    expect(labels.get("b")).toBe(
      "Hallucination · qwen2.5-vl @ lab vLLM · 23 Nov 2026 14:06:00 · batch yes, prompt hallucination/inconsistency edited 0a1b2c3d",
    );
  });

  it("number runs that still read the same, and leave a lone run's label plain", () => {
    const labels = distinctRunLabels(
      [run("a", "2026-11-23T14:05:07Z", { x: "1" }), run("b", "2026-11-23T14:05:07Z", { x: "1" })],
      BUILT_IN_DECLARATIONS,
    );
    expect([labels.get("a"), labels.get("b")]).toEqual([
      "Hallucination · stub-vision @ Stub · 23 Nov 2026 14:05:07 · #1 of 2",
      "Hallucination · stub-vision @ Stub · 23 Nov 2026 14:05:07 · #2 of 2",
    ]);
    expect(distinctRunLabels([run("a", "2026-11-23T14:05:07Z", { x: "1" })], BUILT_IN_DECLARATIONS).get("a")).toBe(
      "Hallucination · stub-vision @ Stub · 23 Nov 2026 14:05:07",
    );
    expect(runDate("2026-01-05T03:07:09Z", { seconds: true })).toBe("5 Jan 2026 03:07:09");
  });

  it("word what a run was started with: its settings, the endpoint's parameters, the other judges, prompts, batch and ensemble", () => {
    expect(
      runSettingWords({
        settings: { aggregation: "mean", verdict: { on: "overall", threshold: 70 } },
        endpointSnapshot: {
          name: "Stub",
          model: "m",
          baseUrl: "http://x",
          temperature: 0.7,
          imageDetail: "low",
          roles: { critic: { name: "Other", model: "gpt-4o", temperature: 0 } },
        },
        batchMode: true,
        ensemble: { kind: "samples", samples: 5, combine: "mean" },
        promptVersions: { "hallucination/inconsistency": "0a1b2c3d4e5f" },
      }),
    ).toEqual({
      aggregation: "mean",
      "verdict.on": "overall",
      "verdict.threshold": "70",
      temperature: "0.7",
      imageDetail: "low",
      "critic judge": "gpt-4o @ Other",
      "critic temperature": "0",
      "prompt hallucination/inconsistency": "edited 0a1b2c3d",
      batch: "yes",
      ensemble: "samples of 5, mean",
      "endpoint at": "http://x",
    });
    expect(runSettingWords({ settings: {}, endpointSnapshot: {} })).toEqual({});
  });

  it("tell apart runs of one endpoint started the same minute that differ only by input mode, frames, samples or endpoint address", () => {
    const vllm = { name: "vLLM", model: "qwen2.5-vl", baseUrl: "http://gpu-1:8000/v1", temperature: 0 };
    const base = { inputMode: "images", settings: { frames: 8 }, endpointSnapshot: vllm };
    const variants: [string, Parameters<typeof runSettingWords>[0]][] = [
      ["plain", base],
      ["mode", { ...base, inputMode: "video-file" }],
      ["frames", { ...base, settings: { frames: 32 } }],
      ["samples", { ...base, ensemble: { kind: "samples", samples: 5, temperature: 0.7 } }],
      ["endpoint", { ...base, endpointSnapshot: { ...vllm, baseUrl: "http://gpu-2:8000/v1" } }],
    ];
    const labels = distinctRunLabels(
      variants.map(([id, startedWith]) =>
        run(id, "2026-11-28T07:12:05Z", runSettingWords(startedWith), { endpointName: "vLLM", model: "qwen2.5-vl" }),
      ),
      BUILT_IN_DECLARATIONS,
    );
    const names = variants.map(([id]) => labels.get(id)!);
    expect(new Set(names).size).toBe(variants.length);
    // Each says what sets it apart, never a bare number.
    for (const name of names) expect(name).not.toMatch(/#\d of/);
    expect(labels.get("mode")).toContain("input mode video-file");
    expect(labels.get("plain")).toContain("input mode images");
    expect(labels.get("frames")).toContain("frames 32");
    expect(labels.get("samples")).toContain("ensemble samples of 5");
    expect(labels.get("endpoint")).toContain("endpoint at http://gpu-2:8000/v1");
    expect(labels.get("plain")).toContain("endpoint at http://gpu-1:8000/v1");
  });
});
