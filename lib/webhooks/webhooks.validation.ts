import { z } from "zod";
import { baseUrlProblem } from "../judge/endpoints/base-url";
import { recordIdSchema } from "../validation/ids";
import { WEBHOOK_EVENT_IDS } from "./webhook-events";

export const webhookIdSchema = recordIdSchema;

/** An http(s) URL without credentials (they would go to whoever answers); a query string is allowed here. */
const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return void ctx.addIssue({ code: "custom", message: "url must be an http(s) URL." });
    }
    // The endpoint rules, minus the query-string one: a receiver may take its own token in the query.
    const problem =
      baseUrlProblem(`${url.origin}${url.pathname}`) ??
      (url.username || url.password ? "url must not contain a user name or password." : null);
    if (problem) ctx.addIssue({ code: "custom", message: problem.replace(/^baseUrl/, "url") });
  });

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_IDS))
  .min(1, "Pick at least one event.")
  .transform((events) => [...new Set(events)]);

export const createWebhookSchema = z.strictObject({
  url: webhookUrlSchema,
  events: eventsSchema,
  description: z.string().trim().max(500).default(""),
});

export const updateWebhookSchema = z
  .strictObject({
    url: webhookUrlSchema.optional(),
    events: eventsSchema.optional(),
    description: z.string().trim().max(500).optional(),
    enabled: z.boolean().optional(),
    /** true: a new signing secret, shown once in the answer. */
    rotateSecret: z.literal(true).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "Send at least one field to change.");

/** What a client sends to add a webhook (`POST /api/v1/projects/:id/webhooks`). Browser-safe: the webhooks card types its bodies with these. */
export type WebhookCreate = z.input<typeof createWebhookSchema>;
/** What a client sends to change one (`PATCH /api/v1/webhooks/:id`). */
export type WebhookUpdate = z.input<typeof updateWebhookSchema>;

export const deliveryListQuerySchema = z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50) });
