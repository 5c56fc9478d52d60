import { z } from "zod";
import { guidelinesSchema } from "../projects/projects.validation";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import type { TaskCatalogue } from "../task-modules/task-catalogue";
import type { QueueTypeModule } from "../task-modules/queue-type-module";
import { itemQueueTypes } from "./queue-types";
import { QUEUE_HAND_OUTS } from "./queue-states.validation";
import { scoreCategories, type VideoFilterInput, videoFilterSchema, videoSorts } from "../videos/video-filter";

export const queueIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Invalid id.");
const runIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Invalid run id.");

/**
 * The core's queue types: they review videos (a task folder adds item queue types, lib/queues/queue-types.ts).
 * "unstable": an ensemble run's unstable scores only (samples or panel judges that spread past the target's threshold; lib/ensembles).
 */
const VIDEO_QUEUE_SCOPES = ["verdict", "scores", "unstable"] as const;
/** As a queue stores it: one of the core's video queue types or a registered task's item queue type id. */
export type QueueType = string;

/** How a "scores" queue asks: every score ("full"), or first which categories are present, then values only for those ("presence"). */
export const QUEUE_MODES = ["full", "presence"] as const;
export type QueueMode = (typeof QUEUE_MODES)[number];

export type { QueueHandOut } from "./queue-states.validation";

/** What a new queue reviews: the videos matching a video-list filter, in list order, in one judge run. */
function buildCreateQueueSchema(catalogue: DeclarationCatalogue, scopes: readonly QueueTypeModule[]) {
  const core = {
    name: z.string().trim().min(1, "Give the queue a name.").max(200, "At most 200 characters."),
    /** The run whose judge values are reviewed; omitted: the filter's run, else the project's latest run. */
    runId: runIdSchema.optional(),
    filter: videoFilterSchema(catalogue).default({}),
    /** The video list's order, so items come in the order the list showed them. */
    sort: z.enum(videoSorts(catalogue)).default("path"),
    dir: z.enum(["asc", "desc"]).default("asc"),
    scope: z.enum([...VIDEO_QUEUE_SCOPES, ...scopes.map((scope) => scope.id)] as [string, ...string[]]),
    /** With scope "scores": the categories to review; empty means all of them. */
    categories: z
      .array(z.enum(scoreCategories(catalogue)))
      .max(scoreCategories(catalogue).length)
      .default([]),
    /** With scope "scores": "presence" asks first which categories are present in the video (the task must declare presence targets). */
    mode: z.enum(QUEUE_MODES).default("full"),
  };
  const rest = {
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
    reviewersPerItem: z
      .number()
      .int()
      .min(1, "At least 1 reviewer per item.")
      .max(10, "At most 10 reviewers per item.")
      .default(1),
    /** The order items are handed out in (QUEUE_HAND_OUTS). */
    handOut: z.enum(QUEUE_HAND_OUTS).default("overlap"),
    blind: z.boolean().default(false),
    /** Reviewers also mark where (spans of the task's labels; lib/queues/localize.ts). */
    localize: z.boolean().default(false),
    /** Instructions for the queue's reviewers (Markdown). */
    guidelines: guidelinesSchema.default(""),
  };
  // Each item queue type's own options (lib/queues/queue-type.ts `options`), under the body key it declares, in registry order.
  const scopeOptions = Object.fromEntries(
    scopes.flatMap((scope) => (scope.options ? [[scope.options.key, scope.options.schema]] : [])),
  );
  return z.object({ ...core, ...scopeOptions, ...rest }) as unknown as z.ZodObject<typeof core & typeof rest>;
}

/** The create-queue body's schema for the catalogue's tasks and item queue types (kept with the catalogue). */
export function createQueueSchema(catalogue: TaskCatalogue) {
  return catalogue.derived("queues.createSchema", () => buildCreateQueueSchema(catalogue, itemQueueTypes(catalogue)));
}
/** A create-queue body: the core's fields, and any item queue type's options under its key (checked by the scope's schema). */
export type CreateQueueInput = Omit<z.input<ReturnType<typeof createQueueSchema>>, "filter"> & {
  filter?: VideoFilterInput;
} & { readonly [scopeOptionsKey: string]: unknown };

/** How many videos a queue with this filter would hold, and the targets per video of the chosen categories (the "new queue" form asks before creating). */
export function previewQueueSchema(catalogue: TaskCatalogue) {
  return catalogue.derived("queues.previewSchema", () =>
    createQueueSchema(catalogue).pick({ runId: true, filter: true, categories: true }),
  );
}
export type PreviewQueueInput = Omit<z.input<ReturnType<typeof previewQueueSchema>>, "filter"> & {
  filter?: VideoFilterInput;
};

/**
 * The preview route's query: the video list's filter, and `categories` (comma-separated score categories, none: all)
 * for the targets per video; the categories are checked by previewQueueSchema.
 */
export function queuePreviewQuerySchema(catalogue: DeclarationCatalogue) {
  return catalogue.derived("queues.previewQuery", () =>
    videoFilterSchema(catalogue).extend({
      categories: z
        .string()
        .max(4000)
        .optional()
        .describe("Score categories, comma-separated, for the target counts (none: all)."),
    }),
  );
}

/** An owner's edit of a queue's guidelines. */
export const queueGuidelinesSchema = z.object({ guidelines: guidelinesSchema });

/** `?archived=` of the queue list: "1" or "true" lists the archived queues instead of the open ones. */
export const archivedFlagSchema = z.enum(["0", "1", "true", "false"]).optional();

/** A yes/no query flag of the queue routes (`?next=`, `?payload=`): "1" or "0", default "0". */
export const queueFlagSchema = z.enum(["0", "1"]).default("0");
