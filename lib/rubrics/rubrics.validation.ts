import { z } from "zod";

export const rubricTaskIdSchema = z.string().min(1).max(64);

/** `POST …/rubric-tasks` and `PUT /rubric-tasks/{id}`: a definition as data, or a JSON/YAML file's text. */
export const rubricBodySchema = z.union([
  z.strictObject({ definition: z.unknown() }),
  z.strictObject({ file: z.string().max(256 * 1024) }),
]);

/** `PATCH /rubric-tasks/{id}`: archive or restore. */
export const rubricArchiveSchema = z.strictObject({ archived: z.boolean() });

/** `POST …/rubric-tasks/preview`: a definition (saved or not), a video and an endpoint. */
export const rubricPreviewSchema = z.strictObject({
  definition: z.unknown(),
  videoId: z.string().min(1).max(64),
  endpointId: z.string().min(1).max(64),
  /** Which key frame or cluster, for a per-scope rubric (the first when absent). */
  scopeIndex: z.int().min(0).max(1000).default(0),
  /**
   * For a rubric whose subject is an item: which item of the video fills `{{item.<field>}}`, by its id in its
   * file or its FrameJury id (any imported item of the video with those fields).
   */
  item: z.string().trim().min(1).max(200).optional(),
});

export type RubricBody = z.output<typeof rubricBodySchema>;

export type RubricPreviewInput = z.output<typeof rubricPreviewSchema>;

/** `GET /rubric-tasks/{id}/export?version=`: one version's file (the latest when absent). */
export const rubricExportQuerySchema = z.strictObject({
  version: z.coerce.number().int().min(1).max(1_000_000).optional(),
});
