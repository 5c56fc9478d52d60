/**
 * The events a webhook can receive. The database writes them itself (triggers in the migrations
 * `webhooks` and `webhook_alignment_event`); `ping` is sent only by an owner's "Send test" and is not subscribable.
 */
export const WEBHOOK_EVENTS = [
  { id: "run.finished", label: "Run finished", description: "A judge run judged every video (status done)." },
  { id: "run.failed", label: "Run failed", description: "A judge run ended failed." },
  {
    id: "queue.finished",
    label: "Queue finished",
    description: "The last item of a review queue got its last reviewer.",
  },
  { id: "label_set.imported", label: "Label set imported", description: "A label set (human labels) was imported." },
  {
    id: "alignment.finished",
    label: "Alignment finished",
    description: "Aligning a judge to labels ended (done or failed).",
  },
] as const;

export type WebhookEventId = (typeof WEBHOOK_EVENTS)[number]["id"];
export const WEBHOOK_EVENT_IDS = WEBHOOK_EVENTS.map((event) => event.id) as [WebhookEventId, ...WebhookEventId[]];
export const PING_EVENT = "ping";
