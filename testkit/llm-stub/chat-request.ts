/**
 * TEST TOOL. A chat-completions request as the stub LLM reads it: its schema, its text and images, and the simulated
 * servers a model name picks.
 */
import { z } from "zod";
import { imageHashOf } from "./chat-body";

/** Models whose name contains "text-only" answer any request with an image with a 400, as a model without vision does. */
export const TEXT_ONLY_MODEL = /text-only/i;
/**
 * Simulated servers, by model name, so a test (or an e2e that only fills in the endpoint form) picks one:
 * "…images-per-request-N…": vLLM without a larger `--limit-mm-per-prompt` (N = 1 is vLLM's default), a request
 * with more images gets vLLM's 400; "…no-response-format…": any `response_format` is refused with a 400;
 * "…json-object-only…": `json_schema` is refused, `json_object` accepted; "…no-logprobs…": `top_logprobs` are
 * never returned; "…context-N…": a request whose prompt and `max_tokens` exceed N tokens gets vLLM's
 * context-length 400.
 */
export const IMAGE_LIMIT_MODEL = /images-per-request-(\d+)/i;
export const NO_RESPONSE_FORMAT_MODEL = /no-response-format/i;
export const JSON_OBJECT_ONLY_MODEL = /json-object-only/i;
export const NO_LOGPROBS_MODEL = /no-logprobs/i;
export const CONTEXT_MODEL = /context-(\d+)/i;

const messageSchema = z
  .object({
    role: z.string(),
    content: z.union([
      z.string(),
      z.array(
        z
          .object({
            type: z.string(),
            text: z.string().optional(),
            image_url: z.object({ url: z.string() }).passthrough().optional(),
            video_url: z.object({ url: z.string() }).passthrough().optional(),
          })
          .passthrough(),
      ),
      z.null(),
    ]),
  })
  .passthrough();

export const chatRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(messageSchema).min(1),
    stream: z.boolean().optional(),
    response_format: z.object({ type: z.string() }).passthrough().optional(),
    max_tokens: z.number().optional(),
    max_completion_tokens: z.number().optional(),
    logprobs: z.boolean().optional(),
    top_logprobs: z.number().int().min(0).max(20).optional(),
  })
  .passthrough();

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The request's image parts' `image_url` objects, in order. */
export function imageParts(body: ChatRequest): { url: string }[] {
  return body.messages.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : (message.content ?? []).flatMap((part) =>
          part.type === "image_url" && part.image_url ? [part.image_url] : [],
        ),
  );
}

export function imageUrlsOf(body: ChatRequest): string[] {
  return imageParts(body).map((part) => part.url);
}

/** The text parts of every message, joined by newlines, and a short hash of each image (`imageHashes`: those already computed, in order). */
export function requestParts(body: ChatRequest, imageHashes?: readonly string[]): { text: string; images: string[] } {
  const texts: string[] = [];
  for (const message of body.messages) {
    if (typeof message.content === "string") texts.push(message.content);
    else for (const part of message.content ?? []) if (part.type === "text" && part.text) texts.push(part.text);
  }
  return { text: texts.join("\n"), images: imageHashes ? [...imageHashes] : imageUrlsOf(body).map(imageHashOf) };
}
