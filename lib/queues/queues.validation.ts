import { z } from "zod";
import { guidelinesSchema } from "../projects/projects.validation";
import { memoByTaskRegistry } from "../tasks/registry";
import { scoreCategories, type VideoFilterInput, videoFilterSchema, videoSorts } from "../videos/video-filter";

export const queueIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Invalid id.");
const runIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Invalid run id.");

/** "unstable": an ensemble run's unstable scores only (samples or panel judges that spread past the target's threshold; lib/ensembles). */
export const QUEUE_SCOPES = ["verdict", "scores", "captions", "answers", "unstable"] as const;
export type QueueScope = (typeof QUEUE_SCOPES)[number];

/** How a "scores" queue asks: every score ("full"), or first which categories are present, then values only for those ("presence"). */
export const QUEUE_MODES = ["full", "presence"] as const;
export type QueueMode = (typeof QUEUE_MODES)[number];

/** What a new queue reviews: the videos matching a video-list filter, in list order, in one judge run. */
export const createQueueSchema = memoByTaskRegistry(() =>
  z.object({
    name: z.string().trim().min(1, "Give the queue a name.").max(200, "At most 200 characters."),
    /** The run whose judge values are reviewed; omitted: the filter's run, else the project's latest run. */
    runId: runIdSchema.optional(),
    filter: videoFilterSchema().default({}),
    /** The video list's order, so items come in the order the list showed them. */
    sort: z.enum(videoSorts()).default("path"),
    dir: z.enum(["asc", "desc"]).default("asc"),
    scope: z.enum(QUEUE_SCOPES),
    /** With scope "scores": the categories to review; empty means all of them. */
    categories: z.array(z.enum(scoreCategories())).max(scoreCategories().length).default([]),
    /** With scope "scores": "presence" asks first which categories are present in the video (the task must declare presence targets). */
    mode: z.enum(QUEUE_MODES).default("full"),
    /** With scope "captions" (a caption run): only captions of this model and/or caption type. */
    captions: z
      .object({
        model: z.string().trim().min(1).max(200).optional(),
        type: z.string().trim().min(1).max(100).optional(),
      })
      .default({}),
    /**
     * With scope "answers" (a QA run): only questions of this format / category, and only the answers the judge
     * decided unless `letters` also takes multiple-choice answers whose letter FrameJury read (those need no review).
     */
    answers: z
      .object({
        format: z.enum(["mc", "open"]).optional(),
        category: z.string().trim().min(1).max(100).optional(),
        letters: z.boolean().default(false),
      })
      .default({ letters: false }),
    /**
     * Exactly these videos of the run, in this order, instead of a filter (what-to-label-next proposals);
     * `chosenBy` says how they were chosen, shown on the queue's page.
     */
    videoIds: z
      .array(
        z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9_-]{1,64}$/, "Invalid video id."),
      )
      .min(1)
      .max(10_000)
      .optional(),
    chosenBy: z.string().trim().min(1).max(200).optional(),
    reviewersPerItem: z.number().int().min(1, "At least 1 reviewer per item.").max(10, "At most 10 reviewers per item.").default(1),
    blind: z.boolean().default(false),
    /** Instructions for the queue's reviewers (Markdown). */
    guidelines: guidelinesSchema.default(""),
  }),
);
export type CreateQueueInput = Omit<z.input<ReturnType<typeof createQueueSchema>>, "filter"> & { filter?: VideoFilterInput };

/** How many videos a queue with this filter would hold (the "new queue" form asks before creating). */
export const previewQueueSchema = memoByTaskRegistry(() => createQueueSchema().pick({ runId: true, filter: true }));
export type PreviewQueueInput = Omit<z.input<ReturnType<typeof previewQueueSchema>>, "filter"> & { filter?: VideoFilterInput };

/** One judgment in a submission: the target is a reviewed metric's id (e.g. the verdict) or a judge score's id. */
export const itemJudgmentSchema = z.object({
  target: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "Unknown target."),
  value: z.number().finite(),
  note: z.string().trim().max(5000).nullable().optional(),
  reason: z.string().trim().max(200).nullable().optional(),
  expectedVersion: z.number().int().min(0).optional(),
  /** The reviewer took the judge's value with the accept action (`a` / `A`). */
  acceptedJudge: z.boolean().optional(),
});

/** A presence-first item's answer for one category: present (1) or absent (0) in the whole video. */
export const presenceJudgmentSchema = z.object({
  category: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_:-]{1,64}$/, "Unknown category."),
  value: z.union([z.literal(0), z.literal(1)], { error: "A presence is 1 (present) or 0 (absent)." }),
  note: z.string().trim().max(5000).nullable().optional(),
  expectedVersion: z.number().int().min(0).optional(),
});
export type PresenceJudgment = z.infer<typeof presenceJudgmentSchema>;

export const submitItemSchema = z.object({
  judgments: z.array(itemJudgmentSchema).max(1000),
  /** Presence-first queues: every category of the item, present or absent (the absent ones' scores are stored as the declared absent value). */
  presence: z.array(presenceJudgmentSchema).max(200).optional(),
});
export type SubmitItemInput = z.infer<typeof submitItemSchema>;

/** An owner's edit of a queue's guidelines. */
export const queueGuidelinesSchema = z.object({ guidelines: guidelinesSchema });

/** `?archived=` of the queue list: "1" or "true" lists the archived queues instead of the open ones. */
export const archivedFlagSchema = z.enum(["0", "1", "true", "false"]).optional();

/** A yes/no query flag of the queue routes (`?next=`, `?payload=`): "1" or "0", default "0". */
export const queueFlagSchema = z.enum(["0", "1"]).default("0");
