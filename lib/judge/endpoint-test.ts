import { randomInt } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { managedEndpoint } from "./endpoint-lifecycle";
import { assertEndpointUrlAllowed, EndpointNotAllowedError } from "./endpoint-url-policy";
import { endpointConfigOf } from "./endpoints";
import { LlmError, openAiCompatibleClient, type LlmClient } from "./llm-client";
import { solidColourDataUrl, TEST_COLOURS, type TestColour } from "./test-image";

/**
 * The Judge page's *Test* button: one small request to an endpoint, through the same client the judge
 * uses (the SSRF guard at connect time, no redirects, the stored key decrypted on the server, the
 * endpoint's timeout), with a 64×64 PNG of one colour and a one-line question. The answer says whether
 * the endpoint answered, how long it took, whether the model took the image, and what went wrong in
 * plain words. Nothing is stored.
 */

export const ENDPOINT_TEST_PROMPT = "What colour is this image? Answer in one word.";
/** The longest a test waits, whatever the endpoint's own timeout: someone is looking at a button. */
const MAX_TEST_TIMEOUT_MS = 60_000;

export interface EndpointTestResult {
  /** The endpoint returned a usable answer. */
  answered: boolean;
  /** From sending the request to its answer or failure. */
  latencyMs: number;
  /** "yes": it named the colour; "no": it refused the image (or said it sees none); "unknown": answered otherwise, or failed first. */
  tookImage: "yes" | "no" | "unknown";
  /** The colour that was sent, and whether the answer named it. */
  colour: TestColour;
  colourNamed: boolean;
  /** The first 200 characters of the answer. */
  answer: string | null;
  /** What went wrong, in plain words; null when it answered. */
  error: string | null;
  /** The HTTP status of a refused request. */
  status: number | null;
  /**
   * Whether the answer carried token logprobs: asked for (as the judge asks) only when the endpoint is set
   * to request them; "not_asked" otherwise, and when the call failed first.
   */
  logprobs?: "yes" | "no" | "not_asked";
}

const IMAGE_REFUSAL = /\b(image|images|image_url|vision|multimodal|multi-modal)\b/i;
const CANNOT_SEE = /\b(can(?:not|'t|’t)|unable to|do(?:n't|n’t| not)) (?:see|view|process|access|read)\b.*\b(image|picture|images)\b|\bno image\b/i;

export async function testEndpoint(prisma: PrismaClient, actor: Actor, endpointId: string, deps: { client?: LlmClient } = {}): Promise<EndpointTestResult> {
  const endpoint = await managedEndpoint(prisma, actor, endpointId);
  const config = endpointConfigOf(endpoint);
  const colour = (Object.keys(TEST_COLOURS) as TestColour[])[randomInt(Object.keys(TEST_COLOURS).length)]!;
  const base = { colour, colourNamed: false, answer: null, status: null } as const;
  try {
    // The same check as on save, so an address refused since then gets the policy's own words.
    await assertEndpointUrlAllowed(config.baseUrl);
  } catch (error) {
    if (error instanceof EndpointNotAllowedError) return { ...base, answered: false, latencyMs: 0, tookImage: "unknown", error: error.message };
    throw error;
  }
  const client = deps.client ?? openAiCompatibleClient({ baseURL: config.baseUrl, apiKey: config.apiKey });
  const timeoutMs = Math.min(config.timeoutSeconds * 1000, MAX_TEST_TIMEOUT_MS);
  const started = performance.now();
  try {
    const result = await client.complete(
      {
        model: config.model,
        text: ENDPOINT_TEST_PROMPT,
        images: [{ url: solidColourDataUrl(colour), detail: "low" }],
        temperature: config.temperature,
        responseFormat: null,
        topLogprobs: config.requestLogprobs ? config.topLogprobs : null,
      },
      { timeoutMs },
    );
    const latencyMs = Math.round(performance.now() - started);
    const text = (result.text ?? "").replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
    if (!text) {
      const why = result.refusal ? `The model refused: ${result.refusal.slice(0, 200)}` : "The endpoint answered with no text.";
      return { ...base, answered: false, latencyMs, tookImage: "unknown", error: why };
    }
    const colourNamed = new RegExp(`\\b${colour}\\b`, "i").test(text);
    const tookImage = colourNamed ? "yes" : CANNOT_SEE.test(text) ? "no" : "unknown";
    const logprobs = !config.requestLogprobs ? "not_asked" : result.logprobs?.length ? "yes" : "no";
    return { ...base, answered: true, latencyMs, tookImage, colourNamed, answer: text.slice(0, 200), error: null, logprobs };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    const llmError = error instanceof LlmError ? error : null;
    const refusedImage = llmError?.kind === "client" && llmError.status === 400 && IMAGE_REFUSAL.test(llmError.excerpt ?? "");
    return {
      ...base,
      answered: false,
      latencyMs,
      tookImage: refusedImage ? "no" : "unknown",
      status: llmError?.status ?? null,
      error: llmError ? plainWords(llmError, timeoutMs, refusedImage) : `Unexpected failure: ${error instanceof Error ? error.name : "error"}.`,
    };
  }
}

/** What a failed test call means, for someone setting up an endpoint. */
export function plainWords(error: LlmError, timeoutMs: number, refusedImage = false): string {
  const provider = error.excerpt ? ` The endpoint said: “${error.excerpt}”` : "";
  if (refusedImage) return `The model does not take images (400).${provider}`;
  switch (error.kind) {
    case "not_allowed":
      return error.message;
    case "timeout":
      return error.status === 408 ? `The endpoint gave up on the request (408).${provider}` : `No answer within ${Math.round(timeoutMs / 1000)} s (the endpoint's timeout).`;
    case "network": {
      const code = /\(([A-Z_]+)\)/.exec(error.message)?.[1];
      if (code === "ECONNREFUSED") return "The connection was refused: nothing is listening at that address and port.";
      if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "The host name could not be found: check the base URL.";
      if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return "The endpoint closed the connection without an answer.";
      if (code && /CERT|SSL|TLS/.test(code)) return `The endpoint's TLS certificate was not accepted (${code}).`;
      return `Could not reach the endpoint${code ? ` (${code})` : ""}.`;
    }
    case "rate_limited":
      return `The endpoint is rate limiting this key (429): try again later, or lower the endpoint's requests per minute.${provider}`;
    case "server":
      return `The endpoint had an internal error (${error.status}).${provider}`;
    case "bad_response":
      return "The endpoint's answer is not an OpenAI-compatible chat completion: check that the base URL points at the API (it usually ends in /v1).";
    case "client":
      if (error.status === 401) return `The API key was refused (401).${provider}`;
      if (error.status === 403) return `The API key may not use this model or endpoint (403).${provider}`;
      if (error.status === 404) return `The model or URL was not found (404): check the base URL (it usually ends in /v1) and the model name.${provider}`;
      if (error.status !== null && error.status >= 300 && error.status < 400) return error.message;
      return `The endpoint refused the request (${error.status ?? "?"}).${provider}`;
    case "cancelled":
      return "The test was cancelled.";
  }
}
