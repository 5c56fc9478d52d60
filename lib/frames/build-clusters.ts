/**
 * Key-frame clusters (Sora Detector, arXiv 2405.04180): each key frame plus its `neighbours` nearest
 * sampled frames on each side in time, clipped to [0, frameCount).
 *
 * The storage model gives each frame at most one cluster, so where two key frames' windows overlap a
 * frame belongs to the NEARER key frame (ties → the earlier key frame). A key frame is always in its own
 * cluster, and each cluster is a contiguous run of frames, possibly shorter than 2·neighbours + 1.
 */

export type KeyFrameCluster = {
  keyFrame: number;
  /** Ascending frame indices, the key frame included. */
  members: number[];
};

export type FrameClusters = {
  /** One entry per key frame, in ascending key-frame order. */
  clusters: KeyFrameCluster[];
  /** For each frame, the key frame whose cluster it belongs to, or null when in none. */
  clusterOfFrame: (number | null)[];
};

export function buildClusters(
  keyFrameIndices: readonly number[],
  frameCount: number,
  neighbours: number,
): FrameClusters {
  if (!Number.isInteger(frameCount) || frameCount < 0)
    throw new RangeError(`frameCount must be an integer ≥ 0, got ${frameCount}.`);
  if (!Number.isInteger(neighbours) || neighbours < 0)
    throw new RangeError(`neighbours must be an integer ≥ 0, got ${neighbours}.`);
  const keyFrames = [...keyFrameIndices].sort((a, b) => a - b);
  for (const [position, keyFrame] of keyFrames.entries()) {
    if (!Number.isInteger(keyFrame) || keyFrame < 0 || keyFrame >= frameCount)
      throw new RangeError(`Key frame ${keyFrame} is not a frame index in [0, ${frameCount}).`);
    if (position > 0 && keyFrames[position - 1] === keyFrame)
      throw new RangeError(`Key frame ${keyFrame} is listed twice.`);
  }

  const clusterOfFrame: (number | null)[] = new Array<number | null>(frameCount).fill(null);
  // Ascending order plus a strict "nearer" test makes ties go to the earlier key frame.
  for (const keyFrame of keyFrames) {
    for (
      let frame = Math.max(0, keyFrame - neighbours);
      frame <= Math.min(frameCount - 1, keyFrame + neighbours);
      frame++
    ) {
      const current = clusterOfFrame[frame];
      if (current == null || Math.abs(frame - keyFrame) < Math.abs(frame - current)) clusterOfFrame[frame] = keyFrame;
    }
  }

  const membersOf = new Map<number, number[]>(keyFrames.map((keyFrame) => [keyFrame, []]));
  clusterOfFrame.forEach((keyFrame, frame) => {
    if (keyFrame != null) membersOf.get(keyFrame)?.push(frame);
  });
  return {
    clusters: keyFrames.map((keyFrame) => ({ keyFrame, members: membersOf.get(keyFrame) ?? [] })),
    clusterOfFrame,
  };
}
