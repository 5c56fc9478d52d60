/**
 * How many input tokens an endpoint charges for what a call shows it, for the cost before a run
 * (lib/judge/runs/cost-estimate.ts). An endpoint's own rule (`JudgeEndpoint.tokenRule`) wins; without one, the
 * documented provider's rule its base URL or model names (docs/guide/providers.md, "Token rules"); else a flat
 * 255 tokens per image, the rule lost calls are estimated with (lib/judge/calls/lost-calls.ts).
 */
import { z } from "zod";
import { ESTIMATED_CHARS_PER_TOKEN, ESTIMATED_TOKENS_PER_IMAGE } from "../calls/lost-calls";

/** An endpoint's own token rule, as stored and as the endpoint form edits it. */
export const tokenRuleSchema = z
  .object({
    tokensPerImage: z.number().min(0).max(100_000),
    tokensPerVideoFrame: z.number().min(0).max(100_000),
    tokensPerVideoSecond: z.number().min(0).max(1_000_000),
  })
  .strict();
export type TokenRule = z.infer<typeof tokenRuleSchema>;

export type TokenRuleSource = "endpoint" | "openai" | "gemini" | "qwen-vl" | "stub" | "default";

export interface FrameSize {
  width: number;
  height: number;
}

/**
 * A rule as the estimate applies it: tokens per picture and per frame of a video part (by its size, when the
 * provider's rule depends on it); a clip costs `clipFrame` per frame the server samples plus `videoSecond` per second.
 */
export interface ResolvedTokenRule {
  source: TokenRuleSource;
  charsPerToken: number;
  image(size: FrameSize | null): number;
  videoFrame(size: FrameSize | null): number;
  clipFrame(size: FrameSize | null): number;
  videoSecond: number;
}

/** What the rule is chosen from: the endpoint's stored rule, its base URL, model and image detail. */
export interface TokenRuleEndpoint {
  baseUrl: string;
  model: string;
  imageDetail: string;
  tokenRule: unknown;
}

/** The stored rule when it parses, else null (the provider's default applies). */
export function storedTokenRule(stored: unknown): TokenRule | null {
  const parsed = tokenRuleSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

export function tokenRuleFor(endpoint: TokenRuleEndpoint): ResolvedTokenRule {
  const own = storedTokenRule(endpoint.tokenRule);
  if (own)
    return {
      source: "endpoint",
      charsPerToken: ESTIMATED_CHARS_PER_TOKEN,
      image: () => own.tokensPerImage,
      videoFrame: () => own.tokensPerVideoFrame,
      clipFrame: () => own.tokensPerVideoFrame,
      videoSecond: own.tokensPerVideoSecond,
    };
  return providerRule(providerOf(endpoint), endpoint.imageDetail);
}

/** The documented provider an endpoint is, by its base URL's host or its model's name. */
export function providerOf(endpoint: { baseUrl: string; model: string }): Exclude<TokenRuleSource, "endpoint"> {
  const host = hostOf(endpoint.baseUrl);
  const model = endpoint.model.toLowerCase();
  if (/^stub/.test(model)) return "stub";
  if (host === "api.openai.com" || host.endsWith(".openai.azure.com") || /^(gpt-|o\d|chatgpt)/.test(model))
    return "openai";
  if (host === "generativelanguage.googleapis.com" || model.includes("gemini")) return "gemini";
  if (/qwen[\d.]*-?vl/.test(model)) return "qwen-vl";
  return "default";
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
}

const flat = (tokens: number) => () => tokens;

function providerRule(source: Exclude<TokenRuleSource, "endpoint">, imageDetail: string): ResolvedTokenRule {
  const charsPerToken = ESTIMATED_CHARS_PER_TOKEN;
  switch (source) {
    case "openai": {
      const image = (size: FrameSize | null) => openAiImageTokens(size, imageDetail);
      // OpenAI's chat API takes no video part: video modes fall back to a picture per frame.
      return { source, charsPerToken, image, videoFrame: image, clipFrame: image, videoSecond: 0 };
    }
    case "gemini":
      // A clip is counted by its seconds (a frame a second), not by frames.
      return {
        source,
        charsPerToken,
        image: geminiImageTokens,
        videoFrame: flat(258),
        clipFrame: flat(0),
        videoSecond: 263,
      };
    case "qwen-vl": {
      // Two frames make one temporal patch: a frame costs half a picture of its (smaller) video size.
      const videoFrame = (size: FrameSize | null) => qwenTokens(size, QWEN_VIDEO_MAX_PIXELS) / 2;
      const image = (size: FrameSize | null) => qwenTokens(size, QWEN_IMAGE_MAX_PIXELS);
      return { source, charsPerToken, image, videoFrame, clipFrame: videoFrame, videoSecond: 0 };
    }
    case "stub":
      // testkit/llm-stub/stub-video.ts: 255 a picture, 128 a video frame (sent or sampled), 16 a second of a clip.
      return { source, charsPerToken, image: flat(255), videoFrame: flat(128), clipFrame: flat(128), videoSecond: 16 };
    case "default":
      return {
        source,
        charsPerToken,
        image: flat(ESTIMATED_TOKENS_PER_IMAGE),
        videoFrame: flat(ESTIMATED_TOKENS_PER_IMAGE),
        clipFrame: flat(ESTIMATED_TOKENS_PER_IMAGE),
        videoSecond: 0,
      };
  }
}

/** A frame whose size is not known counts as a 512×512 picture. */
const UNKNOWN_SIZE: FrameSize = { width: 512, height: 512 };

/**
 * OpenAI: "low" is 85 tokens; otherwise the picture is fitted in 2048×2048, its short side brought down to 768,
 * and each 512-pixel tile costs 170 on top of 85 ("auto" is counted as "high", the most it may cost).
 */
export function openAiImageTokens(size: FrameSize | null, detail: string): number {
  if (detail === "low") return 85;
  let { width, height } = size ?? UNKNOWN_SIZE;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shorten = Math.min(1, 768 / Math.min(width, height));
  width = Math.floor(width * shorten);
  height = Math.floor(height * shorten);
  return 85 + 170 * Math.ceil(width / 512) * Math.ceil(height / 512);
}

/** Gemini: 258 tokens for a picture within 384×384, else 258 per 768×768 tile. */
export function geminiImageTokens(size: FrameSize | null): number {
  const { width, height } = size ?? UNKNOWN_SIZE;
  if (width <= 384 && height <= 384) return 258;
  return 258 * Math.ceil(width / 768) * Math.ceil(height / 768);
}

const QWEN_FACTOR = 28;
const QWEN_MIN_PIXELS = 4 * QWEN_FACTOR * QWEN_FACTOR;
/** Qwen2.5-VL's processor defaults: 12,845,056 pixels a picture; vLLM's video frames at most 768 tokens' worth. */
const QWEN_IMAGE_MAX_PIXELS = 12_845_056;
const QWEN_VIDEO_MAX_PIXELS = 768 * QWEN_FACTOR * QWEN_FACTOR;

/** Qwen2.5-VL: the picture resized to multiples of 28 within its pixel bounds, one token per 28×28 pixels. */
export function qwenTokens(size: FrameSize | null, maxPixels: number): number {
  const { width, height } = size ?? UNKNOWN_SIZE;
  let h = Math.max(QWEN_FACTOR, Math.round(height / QWEN_FACTOR) * QWEN_FACTOR);
  let w = Math.max(QWEN_FACTOR, Math.round(width / QWEN_FACTOR) * QWEN_FACTOR);
  if (h * w > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    h = Math.floor(height / beta / QWEN_FACTOR) * QWEN_FACTOR;
    w = Math.floor(width / beta / QWEN_FACTOR) * QWEN_FACTOR;
  } else if (h * w < QWEN_MIN_PIXELS) {
    const beta = Math.sqrt(QWEN_MIN_PIXELS / (height * width));
    h = Math.ceil((height * beta) / QWEN_FACTOR) * QWEN_FACTOR;
    w = Math.ceil((width * beta) / QWEN_FACTOR) * QWEN_FACTOR;
  }
  return (h / QWEN_FACTOR) * (w / QWEN_FACTOR);
}
