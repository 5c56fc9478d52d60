import { describe, expect, it } from "vitest";
import { runDate, runName, runNameOfRow, runTaskName } from "./run-name";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";

describe("runName", () => {
  it("names a run by its task, model @ endpoint and start (UTC)", () => {
    expect(
      runName(
        {
          pipeline: "hallucination",
          endpointName: "default (environment)",
          model: "gpt-4o",
          createdAt: new Date("2026-11-23T14:05:59Z"),
        },
        BUILT_IN_DECLARATIONS,
      ),
    ).toBe("Hallucination · gpt-4o @ default (environment) · 23 Nov 2026 14:05");
  });

  it("takes ISO strings (client components get JSON) and names the other tasks", () => {
    expect(
      runName(
        { pipeline: "qa", endpointName: "lab vLLM", model: "qwen2.5-vl", createdAt: "2026-01-05T03:07:00.000Z" },
        BUILT_IN_DECLARATIONS,
      ),
    ).toBe("Video question answering · qwen2.5-vl @ lab vLLM · 5 Jan 2026 03:07");
    expect(runTaskName("caption_style", BUILT_IN_DECLARATIONS)).toBe("Caption style");
  });

  it("shows the endpoint alone when the model is unknown or repeats it, and an unknown pipeline by its id", () => {
    expect(
      runName(
        { pipeline: "mystery", endpointName: "stub", model: null, createdAt: "2026-02-28T23:59:00Z" },
        BUILT_IN_DECLARATIONS,
      ),
    ).toBe("mystery · stub · 28 Feb 2026 23:59");
    expect(
      runName(
        { pipeline: "mystery", endpointName: "gpt-4o", model: "gpt-4o", createdAt: "2026-02-28T23:59:00Z" },
        BUILT_IN_DECLARATIONS,
      ),
    ).toBe("mystery · gpt-4o · 28 Feb 2026 23:59");
  });

  it("never contains an id tail", () => {
    const name = runName(
      {
        pipeline: "hallucination",
        endpointName: "e",
        model: "m",
        createdAt: "2026-11-23T14:05:00Z",
      },
      BUILT_IN_DECLARATIONS,
    );
    expect(name).not.toMatch(/\brun [a-z0-9]{4,}/);
    expect(runDate("not a date")).toBe("not a date");
  });
});

describe("runNameOfRow", () => {
  const row = {
    pipeline: "pairwise",
    createdAt: "2026-11-29T08:00:00Z",
    endpointSnapshot: { name: "first judge", model: "qwen2.5-vl" },
    endpoint: { name: "renamed since", model: "other" },
  };

  it("names a panel run by its judges, not by the first judge's endpoint it is stored with", () => {
    const ensemble = { of: "pairs", kind: "panel", endpointIds: ["e1", "e2", "e3"], combine: "majority" };
    expect(runNameOfRow({ ...row, ensemble }, BUILT_IN_DECLARATIONS)).toBe(
      "Pairwise comparison · Panel of 3 judges · 29 Nov 2026 08:00",
    );
    const videoPanel = { kind: "panel", endpointIds: ["e1", "e2"], combine: "mean" };
    expect(runNameOfRow({ ...row, ensemble: videoPanel }, BUILT_IN_DECLARATIONS)).toContain(" · Panel of 2 judges · ");
  });

  it("names samples and plain runs by the endpoint as it was at the start", () => {
    const samples = { kind: "samples", combine: "declared", samples: 3, temperature: 0.7 };
    for (const ensemble of [samples, null, undefined])
      expect(runNameOfRow({ ...row, ensemble }, BUILT_IN_DECLARATIONS)).toContain(" · qwen2.5-vl @ first judge · ");
  });
});
