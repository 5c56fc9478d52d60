import { describe, expect, it } from "vitest";
import { foundGenerators, foundGeneratorsLine } from "./found-generators";

describe("the generators an import finds in its paths, before anything uploads", () => {
  it("counts each generator read from samples/<model>/<Dimension>/…, not the top folder", () => {
    const found = foundGenerators([
      "samples/kling-1.6/Camera_Motion/Garden, zoom in.-0.mp4",
      "samples/kling-1.6/Material/A cup.-1.mp4",
      "samples/wan2.1/Camera_Motion/Garden, zoom in.-0.mp4",
      "samples/VBench2_full_info.json",
      "samples/.DS_Store",
      "Mechanics/A cup.-0.mp4",
    ]);
    expect(found).toEqual({
      generators: [
        { model: "kling-1.6", videos: 2 },
        { model: "wan2.1", videos: 1 },
      ],
      withoutGenerator: 1,
    });
    expect(foundGeneratorsLine(found)).toBe(
      "generators found: kling-1.6 (2 videos), wan2.1 (1 video); no generator for 1 video",
    );
  });

  it("names the form's model for every video when one is given, and counts a folder named like an object key as any other", () => {
    expect(foundGenerators(["samples/a/Material/x-0.mp4", "samples/b/Material/y-0.mp4"], "Sora")).toEqual({
      generators: [{ model: "Sora", videos: 2 }],
      withoutGenerator: 0,
    });
    expect(foundGenerators(["__proto__/Material/x-0.mp4", "constructor/Material/x-0.mp4"]).generators).toEqual([
      { model: "__proto__", videos: 1 },
      { model: "constructor", videos: 1 },
    ]);
    expect(foundGeneratorsLine(foundGenerators(["Material/x-0.mp4"]))).toBe(
      "no generator found in the paths of the 1 video",
    );
  });
});
