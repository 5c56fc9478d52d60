import { randomInt } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { managedEndpoint } from "./endpoint-lifecycle";
import { assertEndpointUrlAllowed, EndpointNotAllowedError } from "./endpoint-url-policy";
import { endpointConfigOf } from "./endpoints";
import { clientForEndpoint, LlmError, type ChatRequest, type LlmClient } from "../calls/llm-client";
import { solidColourDataUrl, TEST_COLOURS, type TestColour } from "./test-image";
import { contextLengthIn, PROBE_IMAGE_COUNTS, type EndpointCapabilities } from "./endpoint-capabilities";
import type { EndpointConfig } from "../engine/judge-video";
import { probeInputModes, type ProbeAttempt, type ProbeRequest } from "./endpoint-probe-video";
import { signedProbeClipUrl } from "../media/clip-urls";

/**
 * The Judge page's *Test* button: one small request to an endpoint, through the same client the judge
 * uses (the SSRF guard at connect time, no redirects, the stored key decrypted on the server, the
 * endpoint's timeout), with a 64×64 PNG of one colour and a one-line question. The answer says whether
 * the endpoint answered, how long it took, whether the model took the image, and what went wrong in
 * plain words. When the endpoint answered (or refused the image), a **probe** follows (probeCapabilities):
 * what the endpoint can do, stored on the endpoint for the engine (lib/judge/endpoints/endpoint-capabilities.ts).
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
  /** What the probe found and stored; null when the endpoint could not be reached (nothing is stored then). */
  capabilities: EndpointCapabilities | null;
  probedAt: string | null;
}

const IMAGE_REFUSAL = /\b(image|images|image_url|vision|multimodal|multi-modal)\b/i;
const CANNOT_SEE =
  /\b(can(?:not|'t|’t)|unable to|do(?:n't|n’t| not)) (?:see|view|process|access|read)\b.*\b(image|picture|images)\b|\bno image\b/i;

export async function testEndpoint(
  prisma: PrismaClient,
  access: ProjectAccess<"endpoints.manage">,
  endpointId: string,
  deps: { client?: LlmClient; signal?: AbortSignal; probeBudgetMs?: number } = {},
): Promise<EndpointTestResult> {
  const endpoint = await managedEndpoint(prisma, access, endpointId);
  const config = endpointConfigOf(endpoint);
  const colour = (Object.keys(TEST_COLOURS) as TestColour[])[randomInt(Object.keys(TEST_COLOURS).length)]!;
  const base = { colour, colourNamed: false, answer: null, status: null, capabilities: null, probedAt: null } as const;
  try {
    // The same check as on save, so an address refused since then gets the policy's own words.
    await assertEndpointUrlAllowed(config.baseUrl);
  } catch (error) {
    if (error instanceof EndpointNotAllowedError)
      return { ...base, answered: false, latencyMs: 0, tookImage: "unknown", error: error.message };
    throw error;
  }
  const client = deps.client ?? clientForEndpoint(config);
  const timeoutMs = Math.min(config.timeoutSeconds * 1000, MAX_TEST_TIMEOUT_MS);
  const tested = await firstRequest(client, config, colour, timeoutMs, base);
  // An endpoint that answered, or refused the image with a 400, can be probed; an unreachable one tells nothing.
  if (!tested.result.answered && tested.result.tookImage !== "no") return tested.result;
  const capabilities = await probeCapabilities(client, config, tested, timeoutMs, {
    signal: deps.signal,
    budgetMs: deps.probeBudgetMs,
  });
  // Someone who left the page (the request aborted) gets nothing stored: the probe stopped halfway.
  if (deps.signal?.aborted) return tested.result;
  const probedAt = new Date();
  await prisma.judgeEndpoint.update({ where: { id: endpoint.id }, data: { capabilities, probedAt } });
  return { ...tested.result, capabilities, probedAt: probedAt.toISOString() };
}

const imageDetailOf = (config: EndpointConfig) => (config.sendImageDetail === false ? null : ("low" as const));

/** The Test's own request: one coloured image and its question. */
async function firstRequest(
  client: LlmClient,
  config: EndpointConfig,
  colour: TestColour,
  timeoutMs: number,
  base: Pick<EndpointTestResult, "colour" | "colourNamed" | "answer" | "status" | "capabilities" | "probedAt">,
): Promise<{ result: EndpointTestResult; usageKnown: boolean | null }> {
  const started = performance.now();
  try {
    const result = await client.complete(
      {
        model: config.model,
        text: ENDPOINT_TEST_PROMPT,
        images: [{ url: solidColourDataUrl(colour), detail: imageDetailOf(config) }],
        temperature: config.temperature,
        responseFormat: null,
      },
      { timeoutMs },
    );
    const usageKnown = result.usageKnown !== false;
    const latencyMs = Math.round(performance.now() - started);
    const text = (result.text ?? "").replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
    if (!text) {
      const why = result.refusal
        ? `The model refused: ${result.refusal.slice(0, 200)}`
        : "The endpoint answered with no text.";
      return { result: { ...base, answered: false, latencyMs, tookImage: "unknown", error: why }, usageKnown };
    }
    const colourNamed = new RegExp(`\\b${colour}\\b`, "i").test(text);
    const tookImage = colourNamed ? "yes" : CANNOT_SEE.test(text) ? "no" : "unknown";
    return {
      result: { ...base, answered: true, latencyMs, tookImage, colourNamed, answer: text.slice(0, 200), error: null },
      usageKnown,
    };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    const llmError = error instanceof LlmError ? error : null;
    const refusedImage =
      llmError?.kind === "client" && llmError.status === 400 && IMAGE_REFUSAL.test(llmError.excerpt ?? "");
    return {
      result: {
        ...base,
        answered: false,
        latencyMs,
        tookImage: refusedImage ? "no" : "unknown",
        status: llmError?.status ?? null,
        error: llmError
          ? plainWords(llmError, timeoutMs, refusedImage)
          : `Unexpected failure: ${error instanceof Error ? error.name : "error"}.`,
      },
      usageKnown: null,
    };
  }
}

/** The longest the probe's requests take together (the Test's own request comes before it). */
const PROBE_BUDGET_MS = 120_000;
const PROBE_JSON_PROMPT = 'Reply with a JSON object with one key, "ok", set to true.';
const PROBE_TEXT_PROMPT = "Reply with the word OK.";
const PROBE_IMAGES_PROMPT = "How many images are in this message? Answer with a number.";
/** A max_tokens no server allows: the refusal of a server that checks it names its context length (vLLM). */
const CONTEXT_PROBE_MAX_TOKENS = 10_000_000;
const PROBE_SCHEMA = {
  type: "json_schema",
  json_schema: {
    name: "probe",
    strict: true,
    schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false },
  },
};

type Attempt = ProbeAttempt;

/** Sends one probe request within the probe's budget; what came back, a refusal, or why nothing did. */
type SendProbe = (request: ProbeRequest) => Promise<Attempt>;

/** Images: the Test's request carried one; then more per request (PROBE_IMAGE_COUNTS) until the first refusal. */
async function probeMaxImages(
  attempt: SendProbe,
  config: EndpointConfig,
  tested: EndpointTestResult,
  notes: string[],
): Promise<{ images: EndpointCapabilities["images"]; maxImages: number | null }> {
  let images: EndpointCapabilities["images"] = tested.tookImage === "no" ? "no" : tested.answered ? "yes" : "unknown";
  let maxImages: number | null = images === "no" ? 0 : images === "yes" ? 1 : null;
  if (images === "yes") {
    for (const count of PROBE_IMAGE_COUNTS.filter((n) => n > 1)) {
      const colours = Object.keys(TEST_COLOURS) as TestColour[];
      const sent = Array.from({ length: count }, (_, i) => ({
        url: solidColourDataUrl(colours[i % colours.length]!, 32),
        detail: imageDetailOf(config),
      }));
      const outcome = await attempt({ text: PROBE_IMAGES_PROMPT, images: sent, responseFormat: null });
      if (outcome.ok) {
        maxImages = count;
        continue;
      }
      // vLLM says its limit ("At most 2 image(s) may be provided in one request."): take it as said.
      const stated = /at most (\d+) image/i.exec(outcome.error?.excerpt ?? outcome.error?.message ?? "");
      if (stated && Number(stated[1]) < count) maxImages = Math.max(maxImages ?? 0, Number(stated[1]));
      if (!outcome.refused)
        notes.push(
          `Images: stopped at ${count} per request without an answer (${outcome.words}); ${maxImages} per request worked.`,
        );
      break;
    }
  } else if (images === "unknown") {
    images = "unknown";
    notes.push("Images: the first request failed, so the image limit was not probed.");
  }
  return { images, maxImages };
}

/** JSON: the strongest `response_format` accepted (json_schema, then json_object). */
async function probeJsonMode(attempt: SendProbe, notes: string[]): Promise<EndpointCapabilities["jsonMode"]> {
  const schemaOutcome = await attempt({ text: PROBE_JSON_PROMPT, images: [], responseFormat: PROBE_SCHEMA });
  if (schemaOutcome.ok) return "json_schema";
  if (!schemaOutcome.refused) {
    notes.push(`JSON mode: no answer to a json_schema request (${schemaOutcome.words}).`);
    return null;
  }
  const objectOutcome = await attempt({
    text: PROBE_JSON_PROMPT,
    images: [],
    responseFormat: { type: "json_object" },
  });
  if (objectOutcome.ok) return "json_object";
  if (objectOutcome.refused) return "none";
  notes.push(`JSON mode: json_schema was refused, and json_object got no answer (${objectOutcome.words}).`);
  return null;
}

/** Logprobs: whether an answer carries `top_logprobs` when asked. */
async function probeTopLogprobs(attempt: SendProbe, notes: string[]): Promise<boolean | null> {
  const logprobsOutcome = await attempt({ text: PROBE_TEXT_PROMPT, images: [], responseFormat: null, topLogprobs: 2 });
  if (logprobsOutcome.ok) return (logprobsOutcome.result.logprobs ?? []).some((token) => token.top.length > 0);
  if (logprobsOutcome.refused) return false;
  notes.push(`Logprobs: no answer (${logprobsOutcome.words}).`);
  return null;
}

/** Context length: only when a refusal of an impossible max_tokens names it. */
async function probeContextLength(attempt: SendProbe, notes: string[]): Promise<number | null> {
  let contextLength: number | null = null;
  const contextOutcome = await attempt({
    text: PROBE_TEXT_PROMPT,
    images: [],
    responseFormat: null,
    maxTokens: CONTEXT_PROBE_MAX_TOKENS,
  });
  if (!contextOutcome.ok)
    contextLength = contextLengthIn(contextOutcome.error?.excerpt) ?? contextLengthIn(contextOutcome.error?.message);
  if (contextLength === null) notes.push("Context length: the endpoint did not state it.");
  return contextLength;
}

/**
 * What the endpoint can do, one small request at a time (never in parallel, so its limits are not tested
 * too): the most images per request (1, 2, 4, 8, 16 small PNGs, stopping at the first refusal), the
 * strongest `response_format` it accepts (json_schema, then json_object), whether `top_logprobs` come back,
 * whether answers carry usage, its context length when a refusal names it, and which input modes it takes (images,
 * a video of frames, a clip; ./endpoint-probe-video.ts). A refusal (4xx) settles a question; any other failure
 * leaves it unsettled (null), with a note.
 */
export async function probeCapabilities(
  client: LlmClient,
  config: EndpointConfig,
  tested: { result: EndpointTestResult; usageKnown: boolean | null },
  timeoutMs: number,
  options: { signal?: AbortSignal; budgetMs?: number } = {},
): Promise<EndpointCapabilities> {
  const notes: string[] = [];
  // Someone is waiting at a button: the whole probe takes at most this long, whatever the endpoint's timeout.
  const budgetMs = options.budgetMs ?? PROBE_BUDGET_MS;
  const deadline = Date.now() + budgetMs;
  const usage: boolean[] = tested.usageKnown === null ? [] : [tested.usageKnown];
  const attempt = async (request: Omit<ChatRequest, "model" | "temperature">): Promise<Attempt> => {
    const left = deadline - Date.now();
    if (options.signal?.aborted) return { ok: false, refused: false, error: null, words: "the Test was cancelled" };
    if (left <= 0)
      return { ok: false, refused: false, error: null, words: `the probe's ${Math.round(budgetMs / 1000)} s ran out` };
    try {
      const result = await client.complete(
        { model: config.model, temperature: config.temperature, ...request },
        { timeoutMs: Math.min(timeoutMs, left), signal: options.signal },
      );
      usage.push(result.usageKnown !== false);
      return { ok: true, result };
    } catch (error) {
      const llmError = error instanceof LlmError ? error : null;
      const refused =
        llmError?.kind === "client" && llmError.status !== null && llmError.status >= 400 && llmError.status < 500;
      return {
        ok: false,
        refused,
        error: llmError,
        words: llmError ? plainWords(llmError, timeoutMs) : "unexpected failure",
      };
    }
  };

  const { images, maxImages } = await probeMaxImages(attempt, config, tested.result, notes);
  const jsonMode = await probeJsonMode(attempt, notes);
  const topLogprobs = await probeTopLogprobs(attempt, notes);
  const contextLength = await probeContextLength(attempt, notes);

  // Input modes: one small video request at a time in each video mode (./endpoint-probe-video.ts).
  const imageRefusal = images === "no" ? (tested.result.error ?? tested.result.answer ?? "").slice(0, 200) : null;
  const modes = await probeInputModes(attempt, { accepted: images, maxImages, refusal: imageRefusal }, notes, () =>
    signedProbeClipUrl(),
  );

  return {
    inputModes: modes.inputModes,
    maxBodyBytes: modes.maxBodyBytes,
    images,
    maxImages,
    jsonMode,
    topLogprobs,
    usage: usage.length === 0 ? null : usage.every(Boolean),
    contextLength,
    latencyMs: tested.result.latencyMs,
    notes,
  };
}

/** What a failed test call means, for someone setting up an endpoint. */
export function plainWords(error: LlmError, timeoutMs: number, refusedImage = false): string {
  const provider = error.excerpt ? ` The endpoint said: “${error.excerpt}”` : "";
  if (refusedImage) return `The model does not take images (400).${provider}`;
  switch (error.kind) {
    case "not_allowed":
      return error.message;
    case "timeout":
      return error.status === 408
        ? `The endpoint gave up on the request (408).${provider}`
        : `No answer within ${Math.round(timeoutMs / 1000)} s (the endpoint's timeout).`;
    case "network": {
      const code = /\(([A-Z_]+)\)/.exec(error.message)?.[1];
      if (code === "ECONNREFUSED") return "The connection was refused: nothing is listening at that address and port.";
      if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "The host name could not be found: check the base URL.";
      if (code === "ECONNRESET" || code === "UND_ERR_SOCKET")
        return "The endpoint closed the connection without an answer.";
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
      if (error.status === 404)
        return `The model or URL was not found (404): check the base URL (it usually ends in /v1) and the model name.${provider}`;
      if (error.status !== null && error.status >= 300 && error.status < 400) return error.message;
      return `The endpoint refused the request (${error.status ?? "?"}).${provider}`;
    case "cancelled":
      return "The test was cancelled.";
  }
}
