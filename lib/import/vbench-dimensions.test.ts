import { describe, expect, it } from "vitest";
import { vbenchDimensionFileNames } from "../../testkit/import/vbench-prompt-files";
import { samplesPerPrompt } from "../../testkit/import/completeness-report";
import { canonicalDimension, matchDimension, VBENCH_DIMENSIONS } from "./vbench-dimensions";

describe("VBENCH_DIMENSIONS", () => {
  it("names exactly the 18 per-dimension prompt files of the real suite", () => {
    const fileStems = vbenchDimensionFileNames().map((name) => name.replace(/\.txt$/, ""));
    expect(VBENCH_DIMENSIONS).toHaveLength(18);
    expect([...VBENCH_DIMENSIONS].sort()).toEqual(fileStems.sort());
  });
});

describe("samplesPerPrompt", () => {
  it("is 20 for Diversity and 3 for every other dimension", () => {
    expect(samplesPerPrompt("Diversity")).toBe(20);
    expect(samplesPerPrompt("diversity")).toBe(20);
    for (const dimension of VBENCH_DIMENSIONS.filter((name) => name !== "Diversity"))
      expect(samplesPerPrompt(dimension)).toBe(3);
    expect(samplesPerPrompt("My_Custom_Dimension")).toBe(3);
  });
});

describe("matchDimension", () => {
  it("recognises folder names regardless of case and -/_/space spelling", () => {
    expect(matchDimension("Multi-View_Consistency")).toBe("Multi-View_Consistency");
    expect(matchDimension("multi-view consistency")).toBe("Multi-View_Consistency");
    expect(matchDimension("MULTI_VIEW_CONSISTENCY")).toBe("Multi-View_Consistency");
    expect(matchDimension("camera motion")).toBe("Camera_Motion");
    expect(matchDimension("  Human-Anatomy ")).toBe("Human_Anatomy");
    expect(matchDimension("dynamic_spatial relationship")).toBe("Dynamic_Spatial_Relationship");
  });

  it("returns null for anything that is not a dimension", () => {
    expect(matchDimension("kling-1.6")).toBeNull();
    expect(matchDimension("Camera")).toBeNull();
    expect(matchDimension("Camera_Motions")).toBeNull();
    expect(matchDimension("")).toBeNull();
  });

  it("keeps every canonical name a fixed point", () => {
    for (const dimension of VBENCH_DIMENSIONS) expect(matchDimension(dimension)).toBe(dimension);
  });
});

describe("canonicalDimension", () => {
  it("spells known dimensions canonically and keeps other labels as written", () => {
    expect(canonicalDimension("human clothes")).toBe("Human_Clothes");
    expect(canonicalDimension("  Lighting ")).toBe("Lighting");
  });
});
