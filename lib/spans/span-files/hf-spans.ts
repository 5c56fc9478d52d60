/**
 * The spans of a run's Hugging Face dataset (lib/export/hf-dataset.ts): `spans/spans.jsonl`, one row per span on
 * the run's exported videos — the run's own judge spans, the reviewers', the label sets' and the gold — as the
 * dataset's `spans` config. Reviewers are not named (as in the rest of the dataset): each is `reviewer_<n>`,
 * numbered by first appearance in the file's order; nor are a label set's annotators (an imported Label Studio file
 * names them by email): each is `labelset:<id>:annotator_<n>`, numbered the same way. Notes are not exported.
 */
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import type { BoxKeyframe } from "../span-types";

export const HF_SPANS_FILE = "spans/spans.jsonl";

export interface HfSpanRow {
  video_id: string;
  video: string;
  task: string;
  label: string;
  author_kind: string;
  author: string;
  start_frame: number;
  end_frame: number;
  start_s: number;
  end_s: number;
  boxes: BoxKeyframe[];
}

/** The features of the spans config, for the card. */
export const HF_SPAN_FEATURES: { name: keyof HfSpanRow; type: string; meaning: string }[] = [
  { name: "video_id", type: "string", meaning: "FrameJury's video id (the `video_id` of the default config's rows)" },
  { name: "video", type: "string", meaning: "The video's path in the project" },
  { name: "task", type: "string", meaning: "The task whose labels the span uses (`project`: the project's own list)" },
  { name: "label", type: "string", meaning: "The span's label" },
  { name: "author_kind", type: "string", meaning: "`judge` (this run), `reviewer`, `label_set` or `gold`" },
  {
    name: "author",
    type: "string",
    meaning:
      "`judge`, `reviewer_<n>`, `labelset:<id>` or `labelset:<id>:annotator_<n>` (a label set's annotator), or `gold`",
  },
  { name: "start_frame", type: "int64", meaning: "First frame (index of the decoded frames from 0, inclusive)" },
  { name: "end_frame", type: "int64", meaning: "Last frame (inclusive); a point in time is one frame" },
  { name: "start_s", type: "float64", meaning: "Start of the first frame, in seconds (from the container)" },
  { name: "end_s", type: "float64", meaning: "End of the last frame, in seconds" },
  { name: "boxes", type: "list", meaning: "Keyframed boxes `{frame, x, y, w, h, enabled}` in fractions of the frame" },
];

/** The spans on the run's videos that `matchingVideos` (the export's filter, a SQL subquery of ids) keeps. */
export async function hfSpanRows(
  prisma: PrismaClient,
  runId: string,
  matchingVideos: Prisma.Sql,
): Promise<HfSpanRow[]> {
  const rows = await prisma.$queryRaw<
    {
      videoId: string;
      relativePath: string;
      task: string;
      label: string;
      authorKind: string;
      authorId: string;
      startFrame: number;
      endFrame: number;
      startS: number;
      endS: number;
      boxes: BoxKeyframe[];
    }[]
  >(Prisma.sql`
    SELECT s."videoId", v."relativePath", s."task", s."label", s."authorKind"::text AS "authorKind", s."authorId",
      s."startFrame", s."endFrame", s."startS", s."endS", s."boxes"
    FROM "span" s JOIN "video" v ON v."id" = s."videoId"
    WHERE NOT s."withdrawn"
      AND s."videoId" IN (SELECT rv."videoId" FROM "run_video" rv WHERE rv."runId" = ${runId} AND rv."videoId" IN (${matchingVideos}))
      AND (s."authorKind" <> 'judge' OR s."runId" = ${runId})
    ORDER BY s."videoId", s."startFrame", s."endFrame", s."authorKind", s."authorId", s."id"`);
  const authorOf = pseudonyms();
  return rows.map((r) => ({
    video_id: r.videoId,
    video: r.relativePath,
    task: r.task,
    label: r.label,
    author_kind: r.authorKind,
    author: authorOf(r.authorKind, r.authorId),
    start_frame: r.startFrame,
    end_frame: r.endFrame,
    start_s: r.startS,
    end_s: r.endS,
    boxes: r.boxes,
  }));
}

/**
 * Each author as the file names it: reviewers as `reviewer_<n>`, a label set's annotators as
 * `labelset:<id>:annotator_<n>`, numbered by first appearance; the judge, gold and a label set itself as they are.
 */
function pseudonyms(): (kind: string, id: string) => string {
  const reviewers = new Map<string, string>();
  const annotators = new Map<string, string>();
  return (kind, id) => {
    if (kind === "judge") return "judge";
    if (kind === "reviewer") {
      if (!reviewers.has(id)) reviewers.set(id, `reviewer_${reviewers.size + 1}`);
      return reviewers.get(id)!;
    }
    // `labelset:<id>:<annotator>`: the annotator is whatever the imported file called them.
    const annotated = kind === "label_set" ? /^(labelset:[^:]*):./s.exec(id) : null;
    if (!annotated) return id;
    if (!annotators.has(id)) annotators.set(id, `${annotated[1]}:annotator_${annotators.size + 1}`);
    return annotators.get(id)!;
  };
}

/** The card's section on the spans config (nothing when the export has no span). */
export function hfSpansCardSection(count: number): string[] {
  if (count === 0) return [];
  return [
    "## Spans",
    "",
    `${count} span(s) in \`${HF_SPANS_FILE}\` (config \`spans\`): labelled stretches of the videos, by this run's judge, the reviewers and label sets' annotators (not named), label sets and the adjudicated gold. Frames are indices of each video's decoded frames, inclusive; seconds come from the container's timestamps.`,
    "",
    "```python",
    'spans = load_dataset("path/to/this/folder", "spans", split="train")',
    "```",
    "",
    "| name | type | meaning |",
    "|---|---|---|",
    ...HF_SPAN_FEATURES.map((f) => `| \`${f.name}\` | ${f.type} | ${f.meaning} |`),
    "",
  ];
}
