import { describe, expect, it } from "vitest";
import { validateManifest } from "./frame-set-parameters";
import { framesToUpload } from "./frames-to-upload";

describe("framesToUpload", () => {
  it("keeps key frames and clusters, renumbers them, and yields a valid manifest", () => {
    const plan = {
      keyFrameIndices: [2, 7],
      frames: [
        { index: 0, timestampS: 0, isKeyFrame: false, cluster: null },
        { index: 1, timestampS: 0.25, isKeyFrame: false, cluster: 2 },
        { index: 2, timestampS: 0.5, isKeyFrame: true, cluster: 2 },
        { index: 3, timestampS: 0.75, isKeyFrame: false, cluster: 2 },
        { index: 4, timestampS: 1, isKeyFrame: false, cluster: null },
        { index: 7, timestampS: 1.75, isKeyFrame: true, cluster: 7 },
        { index: 8, timestampS: 2, isKeyFrame: false, cluster: 7 },
      ],
    };
    const { manifest, sampledIndex } = framesToUpload(plan);
    expect(sampledIndex).toEqual([1, 2, 3, 7, 8]);
    expect(manifest.map((m) => [m.index, m.isKeyFrame, m.cluster])).toEqual([
      [0, false, 1],
      [1, true, 1],
      [2, false, 1],
      [3, true, 3],
      [4, false, 3],
    ]);
    expect(validateManifest(manifest)).toEqual([]);
  });
});
