import { describe, expect, it } from "vitest";
import { buildClusters } from "./build-clusters";

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("buildClusters", () => {
  it("takes each key frame and its neighbours on both sides", () => {
    const { clusters, clusterOfFrame } = buildClusters([5, 15], 20, 2);
    expect(clusters).toEqual([
      { keyFrame: 5, members: range(3, 7) },
      { keyFrame: 15, members: range(13, 17) },
    ]);
    expect(clusterOfFrame).toHaveLength(20);
    expect(clusterOfFrame.slice(0, 3)).toEqual([null, null, null]);
    expect(clusterOfFrame.slice(3, 8)).toEqual([5, 5, 5, 5, 5]);
    expect(clusterOfFrame.slice(8, 13)).toEqual([null, null, null, null, null]);
    expect(clusterOfFrame[19]).toBeNull();
  });

  it("clips at the ends of the video", () => {
    const { clusters } = buildClusters([0, 19], 20, 2);
    expect(clusters.map((cluster) => cluster.members)).toEqual([
      [0, 1, 2],
      [17, 18, 19],
    ]);
    expect(buildClusters([0], 1, 3).clusters).toEqual([{ keyFrame: 0, members: [0] }]);
  });

  it("gives a frame in two windows to the nearer key frame", () => {
    // Windows 2..6 and 5..9: frame 5 is nearer 4, frame 6 nearer 7.
    const { clusters, clusterOfFrame } = buildClusters([4, 7], 12, 2);
    expect(clusters).toEqual([
      { keyFrame: 4, members: [2, 3, 4, 5] },
      { keyFrame: 7, members: [6, 7, 8, 9] },
    ]);
    expect(clusterOfFrame[5]).toBe(4);
    expect(clusterOfFrame[6]).toBe(7);
  });

  it("gives a frame equally near two key frames to the earlier one", () => {
    const { clusters, clusterOfFrame } = buildClusters([8, 4], 12, 2);
    expect(clusterOfFrame[6]).toBe(4);
    expect(clusters).toEqual([
      { keyFrame: 4, members: [2, 3, 4, 5, 6] },
      { keyFrame: 8, members: [7, 8, 9, 10] },
    ]);
  });

  it("keeps adjacent key frames in their own clusters", () => {
    const { clusterOfFrame } = buildClusters([3, 4], 8, 2);
    expect(clusterOfFrame).toEqual([null, 3, 3, 3, 4, 4, 4, null]);
  });

  it("with no neighbours, clusters are the key frames alone", () => {
    const { clusters, clusterOfFrame } = buildClusters([1, 3], 5, 0);
    expect(clusters.map((cluster) => cluster.members)).toEqual([[1], [3]]);
    expect(clusterOfFrame).toEqual([null, 1, null, 3, null]);
  });

  it("handles no key frames and rejects invalid ones", () => {
    expect(buildClusters([], 3, 2)).toEqual({ clusters: [], clusterOfFrame: [null, null, null] });
    expect(() => buildClusters([3], 3, 2)).toThrow(RangeError);
    expect(() => buildClusters([-1], 3, 2)).toThrow(RangeError);
    expect(() => buildClusters([1, 1], 3, 2)).toThrow(RangeError);
    expect(() => buildClusters([1], 3, -1)).toThrow(RangeError);
  });
});
