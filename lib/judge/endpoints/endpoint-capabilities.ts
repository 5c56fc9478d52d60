import { z } from "zod";

/**
 * What an endpoint's probe found (lib/judge/endpoints/endpoint-test.ts), stored on the endpoint (`capabilities`,
 * `probedAt`) and read by the engine: how many images a request may carry and which JSON mode to ask for.
 * A value the probe could not settle (a timeout, a 5xx) is null, and the engine then behaves as without a
 * probe for that value.
 */

/** The image counts the probe tries, in order; the most it accepted is `maxImages` (16: at least 16). */
export const PROBE_IMAGE_COUNTS = [1, 2, 4, 8, 16] as const;

/** What the probe found of one input mode (lib/judge/endpoints/endpoint-probe-video.ts). */
export const inputModeFindingSchema = z.object({
  /** "yes": a request in this mode was answered; "no": refused with a 4xx; "unknown": not settled. */
  accepted: z.enum(["yes", "no", "unknown"]),
  /** The endpoint's words when it refused the mode (sanitised, at most 200 characters). */
  refusal: z.string().max(200).nullable(),
  /**
   * The most frames one answered request carried: images per request (`images`), frames in the video part
   * (`video-frames`), frames asked to be sampled from the clip (`video-file`); null: none answered.
   */
  maxFrames: z.number().int().min(0).nullable(),
  /** The largest answered request body in this mode, in bytes (null: none, or not measured). */
  maxBodyBytes: z.number().int().min(0).nullable(),
  /** The frame count the answer named ("How many frames does this video have?"); null: it named none. */
  sawFrames: z.number().int().min(0).nullable(),
  /**
   * `video-file` only: whether the endpoint fetched and answered the clip by a signed URL of the app; null: not tried
   * (no APP_SECRET to sign with, or another mode). An endpoint that takes the clip by URL but answered no data URL
   * is sent every clip by URL (clipByUrlOf).
   */
  byUrl: z.enum(["yes", "no", "unknown"]).nullable().optional(),
});
export type InputModeFinding = z.infer<typeof inputModeFindingSchema>;

export const endpointCapabilitiesSchema = z.object({
  /** Whether a request with an image was accepted: "no" when it was refused with a 400 about images. */
  images: z.enum(["yes", "no", "unknown"]),
  /** The most images one request carried and was answered (0: none); null: not settled. */
  maxImages: z.number().int().min(0).nullable(),
  /** The strongest `response_format` the endpoint accepted; null: not settled. */
  jsonMode: z.enum(["json_schema", "json_object", "none"]).nullable(),
  /** Whether an answer asked for `top_logprobs` carried them; null: not settled. */
  topLogprobs: z.boolean().nullable(),
  /** Whether answers carried `usage` (tokens): without it, costs are unknown. */
  usage: z.boolean().nullable(),
  /** The context length in tokens, when an error named it ("maximum context length is N tokens"). */
  contextLength: z.number().int().positive().nullable(),
  /** The first request's round trip, in milliseconds. */
  latencyMs: z.number().int().min(0),
  /** What the probe could not settle and why, in plain words. */
  notes: z.array(z.string().max(400)).max(20),
  /** Each input mode's finding; null: probed before modes were (the endpoint's mode is then as its owner set it). */
  inputModes: z
    .object({
      images: inputModeFindingSchema,
      "video-frames": inputModeFindingSchema,
      "video-file": inputModeFindingSchema,
    })
    .nullable()
    .default(null),
  /**
   * The largest request body accepted below one the endpoint refused, in bytes: a clip too large for it goes by a
   * signed URL (lib/judge/engine/video-media.ts). Null: no body was refused within the sizes the probe tried.
   */
  maxBodyBytes: z.number().int().positive().nullable().default(null),
});
export type EndpointCapabilities = z.infer<typeof endpointCapabilitiesSchema>;

/** Stored capabilities as the engine reads them: anything that does not parse (an older shape) counts as never probed. */
export function capabilitiesOf(stored: unknown): EndpointCapabilities | null {
  if (stored === null || stored === undefined) return null;
  const parsed = endpointCapabilitiesSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/**
 * The most images a request to this endpoint may carry, or null for no known limit: never probed, not settled,
 * every tried count accepted, or no image accepted at all (tiling would not help; the step's error says why).
 */
export function imageLimitOf(capabilities: EndpointCapabilities | null): number | null {
  const most = capabilities?.maxImages ?? null;
  if (most === null || most < 1 || most >= PROBE_IMAGE_COUNTS[PROBE_IMAGE_COUNTS.length - 1]!) return null;
  return most;
}

/**
 * The `response_format` a step asks for: its JSON schema when the endpoint accepts json_schema (or was never
 * probed: the strongest mode is asked for), `json_object` when only that was accepted, none when neither was (the
 * answer is then read from prose, with the repair request as the fallback). Structured output switched off
 * on the endpoint asks for none.
 */
export function responseFormatFor(
  endpoint: { structuredOutput: boolean; capabilities?: EndpointCapabilities | null },
  stepFormat: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null {
  if (!endpoint.structuredOutput || !stepFormat) return null;
  const mode = endpoint.capabilities?.jsonMode ?? null;
  if (mode === "json_object") return { type: "json_object" };
  if (mode === "none") return null;
  return stepFormat;
}

/** The context length an error message states (vLLM's and OpenAI's "maximum context length is N tokens"). */
export function contextLengthIn(message: string | null | undefined): number | null {
  const match =
    /maximum context length is (\d+) tokens/i.exec(message ?? "") ??
    /max_model_len[^\d]{0,20}(\d+)/i.exec(message ?? "");
  const value = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}
