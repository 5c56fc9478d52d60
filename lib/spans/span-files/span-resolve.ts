/**
 * A span file's rows against the project: which video each names, the frames its seconds cover, and whether it is a
 * span FrameJury can keep (spanProblem). Pure: the importer (span-import.ts) loads the videos, labels and frame
 * times and writes what this accepts.
 */
import { type FrameTimes, frameAtTime, frameEndS, frameStartS } from "../../frames/frame-times";
import type { SpanLabel } from "../span-labels";
import type { SpanFields } from "../span-types";
import { secondsOf, sortedBoxes, spanProblem } from "../span-validation";
import { type MatchableVideo, videoMatcher as matchVideos, type VideoMatchKind } from "../../import/video-matcher";
import type { SpanFileRow } from "./span-file-types";

export type { MatchableVideo, VideoMatchKind } from "../../import/video-matcher";

export interface MatchedVideo extends MatchableVideo {
  matchedBy: VideoMatchKind;
}

/**
 * The project's videos by what a file calls them (lib/import/video-matcher.ts): the id the row gives when it is a
 * video of this project, else its `video` as an id, a path in the project (or a longer path ending in one), or a file
 * name that only one video has, Label Studio's upload prefix allowed. A file exported from another project with the
 * same clips carries that project's ids: its paths find the videos.
 */
export function videoMatcher(videos: readonly MatchableVideo[]) {
  const byId = new Map(videos.map((v) => [v.id, v]));
  const matchName = matchVideos(videos, { by: ["id", "path", "file name"], labelStudioPrefix: true });
  const byNameOrPath = (name: string): MatchedVideo | string => {
    const match = matchName(name);
    if ("video" in match) return { ...match.video, matchedBy: match.matchedBy };
    if ("ambiguous" in match)
      return `${match.ambiguous.length} videos of the project have the file name of "${name}": give its path or id`;
    return `"${name}" is not a video of this project (by id, path or file name)`;
  };
  return (named: string | Pick<SpanFileRow, "video" | "videoId">): MatchedVideo | string => {
    const { video, videoId } = typeof named === "string" ? { video: named, videoId: undefined } : named;
    const own = videoId ? byId.get(videoId) : undefined;
    if (own) return { ...own, matchedBy: "id" };
    if (!video) return `"${videoId ?? ""}" is not a video of this project (by id; give its path too)`;
    return byNameOrPath(video);
  };
}

/** The author kinds a span file may name (`author_kind`, as the export writes it); a label set holds the first two. */
const AUTHOR_KINDS = ["reviewer", "label_set", "judge", "gold"] as const;
const PEOPLE = new Set<string>(["reviewer", "label_set"]);

/**
 * Why a row is not a person's span, or null. A label set's annotators are people, and agreement pools them as
 * people: a judge run's spans (`author_kind` judge, an annotator `run:<id>`) and the gold's (`gold`) would join them
 * there. A judge run's spans come from its run and the gold is adjudicated in the project, so such rows are refused,
 * by the kind the file gives or, in a file that gives none, by the annotator's name.
 */
export function notAPersonProblem(row: Pick<SpanFileRow, "annotator" | "authorKind">): string | null {
  const leaveOut = "a label set holds people's spans: leave these rows out (or rename the annotator).";
  if (row.authorKind !== undefined && !PEOPLE.has(row.authorKind))
    return row.authorKind === "judge" || row.authorKind === "gold"
      ? `A ${row.authorKind === "judge" ? "judge run's" : "gold"} span (author_kind ${row.authorKind}): ${leaveOut}`
      : `author_kind "${row.authorKind}" is not one of ${AUTHOR_KINDS.join(", ")}.`;
  if (/^run:/i.test(row.annotator))
    return `The annotator "${row.annotator}" names a judge run, not a person: ${leaveOut}`;
  if (row.annotator.toLowerCase() === "gold")
    return `The annotator "gold" names the adjudicated gold, not a person: ${leaveOut}`;
  return null;
}

/** Times within this of a frame boundary are on it (containers and files round timestamps to the millisecond). */
const ON_BOUNDARY_S = 0.001;

/** The frame boundary t is on (a frame's start, or the video's end), or null. */
function boundaryAt(times: FrameTimes, t: number): number | null {
  const frame = frameAtTime(times, t);
  for (const b of [frameStartS(times, frame), frameEndS(times, frame)]) if (Math.abs(b - t) <= ON_BOUNDARY_S) return b;
  return null;
}

const ms = (s: number) => `${Math.round(s * 1000000) / 1000} ms`;
const sec = (s: number) => `${Math.round(s * 1e6) / 1e6} s`;

/**
 * The frames a row's seconds cover: its start's frame to the last frame starting before its end, a time within 1 ms
 * of a frame boundary read as that boundary. On a video whose frame rate varies a time inside a frame cannot say
 * which frame was meant (a file made at a nominal rate places it elsewhere), so there both times must be on
 * boundaries: a row that is not is refused, naming the nearest boundaries.
 */
export function framesOfRowSeconds(
  times: FrameTimes,
  startS: number,
  endS: number,
): { startFrame: number; endFrame: number } | string {
  if (endS < startS) return `The span ends (${sec(endS)}) before it starts (${sec(startS)}).`;
  if (startS >= times.endS - 1e-9 || endS > times.endS + ON_BOUNDARY_S)
    return `The span (${sec(startS)}–${sec(endS)}) is outside the video (0–${sec(times.endS)}).`;
  const start = boundaryAt(times, startS);
  const end = boundaryAt(times, endS);
  if (times.variable && (start === null || end === null)) {
    const [t, which] = start === null ? [startS, "start"] : [endS, "end"];
    const f = frameAtTime(times, t);
    return (
      `The video's frame rate varies, so seconds name frames only on its frame boundaries: the ${which} ${sec(t)} ` +
      `falls inside frame ${f} (${sec(frameStartS(times, f))}–${sec(frameEndS(times, f))}, ${ms(frameEndS(times, f) - frameStartS(times, f))}). ` +
      "Give start_frame and end_frame, or the frames' exact times."
    );
  }
  const startFrame = frameAtTime(times, start ?? startS);
  const e = end ?? endS;
  let endFrame = frameAtTime(times, e);
  if (endFrame > startFrame && frameStartS(times, endFrame) >= e - 1e-9) endFrame--;
  return { startFrame, endFrame: Math.max(startFrame, endFrame) };
}

/** The span a row gives on its video, with its seconds, or why it cannot be kept. */
export function resolveRow(
  row: SpanFileRow,
  task: string,
  context: { times: FrameTimes; labels: readonly SpanLabel[] },
): (SpanFields & { startS: number; endS: number }) | string {
  let frames: { startFrame: number; endFrame: number } | string;
  if (row.startFrame !== undefined)
    frames = { startFrame: row.startFrame, endFrame: row.endFrame ?? context.times.timesS.length - 1 };
  else frames = framesOfRowSeconds(context.times, row.startS!, row.endS!);
  if (typeof frames === "string") return frames;
  const fields: SpanFields = {
    task,
    label: row.label,
    itemId: "",
    ...frames,
    boxes: sortedBoxes(row.boxes),
    note: row.note,
  };
  const problem = spanProblem(fields, context);
  if (problem) return problem;
  return { ...fields, ...secondsOf(fields, context.times) };
}
