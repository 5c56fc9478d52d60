import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { projectAccess } from "../../authz/permissions";
import { prisma } from "../../db/prisma";
import { createProject } from "../../projects/projects";
import { catalogFor } from "../../task-modules/task-catalogue";
import { getStorage } from "../../storage/storage";
import { makeUser } from "../../../testkit/testing/fixtures";
import { createReadyVideo } from "../../../testkit/testing/ready-video";
import { sharedDataPath } from "../../../testkit/testing/shared-data";
import { runFrameTimesJob } from "../../videos/frame-times-jobs";
import { importSpanLabelSet } from "./span-import";

/*
 * A span file against a real clip (../shared/samples): its seconds name the frames ffprobe's timestamps say, read by
 * the frame-times job from the stored file's container, and a Label Studio range names the same frames counted from 1.
 */
let owner: Actor;
let projectId: string;
const CLIP = "samples/t2vhalubench-5.mp4";

/** Each decoded frame's presentation time as ffprobe prints it, from the first frame, in presentation order. */
function ffprobeFrameTimes(file: string): number[] {
  const out = execFileSync(
    "ffprobe",
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "json", file],
    { encoding: "utf8" },
  );
  const times = (JSON.parse(out) as { frames: { pts_time: string }[] }).frames.map((f) => Number(f.pts_time));
  times.sort((a, b) => a - b);
  return times.map((t) => t - times[0]!);
}

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "Span files on a real clip" })).id;
  const video = await createReadyVideo(prisma, {
    projectId,
    relativePath: "T2V/t2vhalubench-5.mp4",
    createdById: owner.userId,
  });
  await getStorage().put(video.storageKey, fs.readFileSync(sharedDataPath(CLIP)));
  // As a worker does once the video's frames are registered: the import only reads the stored times.
  await runFrameTimesJob({ prisma, storage: getStorage() }, { videoId: video.id });
});

async function importSpans(fileName: string, text: string, format: "spans" | "label_studio_spans") {
  const catalogue = (await catalogFor(prisma, projectId)).declarations();
  const result = await importSpanLabelSet(
    { prisma, storage: getStorage() },
    await projectAccess(prisma, owner, projectId, "videos.import"),
    { file: new TextEncoder().encode(text), fileName, name: fileName, format, task: "hallucination", dryRun: false },
    catalogue,
  );
  return prisma.span.findMany({ where: { labelSetId: result.labelSet!.id }, orderBy: { startFrame: "asc" } });
}

describe("span files on a real clip", () => {
  it("converts seconds with the clip's own frame times, as ffprobe reads them", async () => {
    const times = ffprobeFrameTimes(sharedDataPath(CLIP));
    const startS = times[12]!;
    const endS = times[30]!;
    const [span] = await importSpans(
      "seconds.csv",
      `video,label,start,end\nt2vhalubench-5.mp4,s1,${startS},${endS}\n`,
      "spans",
    );
    // From the frame that starts at startS to the last one starting before endS.
    expect([span!.startFrame, span!.endFrame]).toEqual([12, 29]);
    expect(span!.startS).toBeCloseTo(times[12]!, 5);
    expect(span!.endS).toBeCloseTo(times[30]!, 5);
  });

  it("reads a Label Studio range on the clip as frames from 1", async () => {
    const file = JSON.stringify([
      {
        data: { video: "/data/upload/1/0a1b2c3d-t2vhalubench-5.mp4" },
        annotations: [
          {
            completed_by: 1,
            result: [{ type: "timelinelabels", value: { ranges: [{ start: 1, end: 13 }], timelinelabels: ["d5"] } }],
          },
        ],
      },
    ]);
    const [span] = await importSpans("ls.json", file, "label_studio_spans");
    expect([span!.label, span!.startFrame, span!.endFrame, span!.authorId.endsWith(":ls-user-1")]).toEqual([
      "d5",
      0,
      12,
      true,
    ]);
  });
});
