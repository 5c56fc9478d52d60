import crypto from "node:crypto";

/**
 * Deliveries are signed as the Standard Webhooks specification says (standardwebhooks.com; Svix and others
 * use it), so a receiver verifies them with that project's library in any language, or with these few lines:
 * HMAC-SHA256, keyed with the secret's bytes, of `<webhook-id>.<webhook-timestamp>.<body>`, base64, sent as
 * `webhook-signature: v1,<signature>`.
 */
const PREFIX = "whsec_";

/** A new signing secret: 32 random bytes, as Standard Webhooks writes them. */
export function newWebhookSecret(): string {
  return PREFIX + crypto.randomBytes(32).toString("base64");
}

export function signatureOf(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  return `v1,${crypto.createHmac("sha256", key).update(`${messageId}.${timestamp}.${body}`).digest("base64")}`;
}

/** The headers of one delivery attempt. The id stays the same across retries, so a receiver can drop repeats. */
export function signedHeaders(secret: string, messageId: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "FrameJury-Webhooks/1",
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureOf(secret, messageId, timestamp, body),
  };
}
