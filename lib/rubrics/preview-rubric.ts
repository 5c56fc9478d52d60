/**
 * Preview before a run: one scope of one video judged by a rubric definition (saved or not) through one
 * endpoint, showing what a run would send and read: the rendered prompt with its frames, the raw answer, and
 * the parsed values or the parse error. The request is the one a run's step sends (same frames, text and
 * response_format), so it has the same response-cache key: a preview answers from the cache when a run or an
 * earlier preview asked the same, and a valid answer it gets is cached for the run that follows.
 */
import type { ProjectAccess } from "../authz/permissions";
import { AppError, NotFoundError, ValidationError } from "../errors";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { plainWords } from "../judge/endpoints/endpoint-test";
import { assertEndpointUrlAllowed, EndpointNotAllowedError } from "../judge/endpoints/endpoint-url-policy";
import { endpointConfigOf } from "../judge/endpoints/endpoints";
import { responseCacheKey } from "../judge/engine/cache-key";
import type { FrameRef } from "../task-modules/pipeline-types";
import { keyFramesAndClusters } from "../judge/media/frame-scopes";
import { LlmError, openAiCompatibleClient, type LlmClient } from "../judge/calls/llm-client";
import { parseStructuredOutput, type StructuredOutput } from "../judge/calls/parse-llm-output";
import { FRAME_SET_WHERE } from "../judge/runs/runs";
import { getStorage } from "../storage/storage";
import type { ObjectStorage } from "../storage/object-storage";
import { formatValue } from "../task-modules/task-declaration";
import { criterionScale } from "./rubric-declaration";
import { rubricProblems, type RubricDefinition } from "./rubric-definition";
import { RubricDefinitionError } from "./rubric-errors";
import { frameAsSent, sentFrameHash } from "../judge/media/frame-resize";
import {
  framesRequirement,
  rubricPromptValues,
  rubricScopeInput,
  rubricSkipReason,
  scopeCount,
  scopeFrames,
} from "./rubric-pipeline";
import { answerJsonSchema, answerSchema, renderRubricPrompt, type RubricAnswer } from "./rubric-prompt";
import { rubricTemplateHash } from "./rubric-template-hash";
import type { RubricPreviewInput } from "./rubrics.validation";

/** The longest a preview waits, whatever the endpoint's own timeout: someone is looking at the form. */
const MAX_PREVIEW_TIMEOUT_MS = 120_000;

export interface RubricPreview {
  /** The prompt as sent (the template filled in, then the answer format FrameJury writes). */
  prompt: string;
  /** The frames attached, in the order sent; `url` serves each to the browser. */
  frames: { id: string; index: number; timestampS: number; url: string }[];
  /** Which scope was judged, of how many the video has (1 for a rubric judged once per video). */
  scope: { mode: RubricDefinition["frames"]["mode"]; index: number; count: number };
  rawAnswer: string;
  /** Each criterion's value as stored, its label, and its reason when the rubric asks for them; null when the answer does not parse. */
  parsed: Record<string, { value: number; label: string; reason: string | null }> | null;
  parseError: string | null;
  /** The answer came from the response cache (no call was made). */
  cached: boolean;
  latencyMs: number;
}

/** The endpoint did not answer (timeout, rate limit, refusal of the request): its plain-words reason, never a 500. */
export class PreviewCallError extends AppError {
  constructor(error: LlmError, timeoutMs: number) {
    const status = error.kind === "timeout" ? 504 : 502;
    const code =
      error.kind === "rate_limited"
        ? "endpoint_rate_limited"
        : error.kind === "timeout"
          ? "endpoint_timeout"
          : "endpoint_error";
    super(status, code, `The endpoint did not answer the preview: ${plainWords(error, timeoutMs)}`, {
      kind: error.kind,
      endpointStatus: error.status,
      retryAfterMs: error.retryAfterMs,
    });
  }
}

export interface PreviewDeps {
  /** The LLM client; the judge's OpenAI-compatible client (SSRF guard, no redirects) when absent. */
  client?: LlmClient;
  storage?: ObjectStorage;
  /** Aborts the call when the person gives up (the request's signal). */
  signal?: AbortSignal;
}

export async function previewRubric(
  prisma: PrismaClient,
  access: ProjectAccess<"rubrics.manage">,
  input: RubricPreviewInput,
  deps: PreviewDeps = {},
): Promise<RubricPreview> {
  const { projectId } = access;
  const { definition, problems } = rubricProblems(input.definition);
  if (!definition) throw new RubricDefinitionError(problems);
  const video = await prisma.video.findFirst({
    where: { id: input.videoId, projectId },
    select: { id: true, relativePath: true, prompt: true, width: true, height: true },
  });
  if (!video) throw new NotFoundError("No such video in this project.");
  const endpoint = await prisma.judgeEndpoint.findFirst({ where: { id: input.endpointId, projectId } });
  if (!endpoint) throw new NotFoundError("No such endpoint in this project.");
  if (endpoint.archivedAt)
    throw new ValidationError(
      `Endpoint ${endpoint.name} is archived: restore it on the Judge page to preview with it.`,
    );

  const frames = await runFrames(prisma, video, definition);
  const items = definition.subject.kind === "item" ? [await previewItem(prisma, projectId, video, input.item)] : [];
  const context = { prompt: video.prompt, frames, ...keyFramesAndClusters(frames), items };
  const count = scopeCount(definition, context);
  if (definition.subject.kind === "item" && input.scopeIndex > 0)
    throw new ValidationError("scopeIndex: this rubric judges each item in one call, so the only scope is 0.");
  if (input.scopeIndex >= count) throw scopeOutOfRange(definition, count, video.relativePath);
  const cannot = rubricSkipReason(definition, input.scopeIndex, context);
  if (cannot) throw new ValidationError(`A run would skip this: ${cannot}.`);

  const scopeInput = rubricScopeInput(definition, input.scopeIndex, { ...context, videoId: video.id }, projectId);
  const prompt = renderRubricPrompt(definition, rubricPromptValues(scopeInput.values));
  const config = endpointConfigOf(endpoint);
  const responseFormat = config.structuredOutput ? answerJsonSchema(definition) : null;
  // The key a run's step computes (lib/judge/engine/build-request.ts): an inline template has no system message and no salt.
  const cacheKey = responseCacheKey({
    model: config.model,
    templateHash: rubricTemplateHash(definition),
    text: prompt,
    frameSha256s: scopeInput.frames.map((f) => sentFrameHash(f.sha256, scopeInput.imageMaxSide)),
    temperature: config.temperature,
    imageDetail: config.imageDetail,
    responseFormat,
    salt: null,
    systemRole: false,
  });
  const shown = {
    prompt,
    frames: scopeInput.frames.map((f) => ({
      id: f.id,
      index: f.index,
      timestampS: f.timestampS,
      url: `/api/v1/frames/${f.id}/image`,
    })),
    scope: { mode: definition.frames.mode, index: input.scopeIndex, count },
  };
  // Criteria that localise name frames of the call: its own, not the few-shot examples' that follow them.
  const schema = answerSchema(definition, scopeFrames(definition, input.scopeIndex, context).length);
  const started = performance.now();

  const hit = await prisma.responseCache.findUnique({
    where: { key: cacheKey },
    select: { responseText: true, finishReason: true },
  });
  if (hit) {
    const outcome = parseStructuredOutput(hit.responseText, schema, { finishReason: hit.finishReason });
    return {
      ...shown,
      rawAnswer: hit.responseText,
      ...parsedOf(definition, outcome),
      cached: true,
      latencyMs: Math.round(performance.now() - started),
    };
  }

  const { rawAnswer, outcome, latencyMs } = await askEndpoint(prisma, deps, {
    config,
    prompt,
    responseFormat,
    cacheKey,
    scopeInput,
    schema,
  });
  return { ...shown, rawAnswer, ...parsedOf(definition, outcome), cached: false, latencyMs };
}

/** Why the scope index is past the video's scopes. */
function scopeOutOfRange(definition: RubricDefinition, count: number, relativePath: string): ValidationError {
  const perScope =
    definition.frames.mode === "each_key_frame"
      ? "key frame"
      : definition.frames.mode === "each_cluster"
        ? "cluster"
        : null;
  return new ValidationError(
    perScope === null
      ? "scopeIndex: this rubric judges each video in one call, so the only scope is 0."
      : count === 0
        ? `${relativePath} has no key frames to judge one by one.`
        : `scopeIndex: ${relativePath} has ${count} ${perScope}${count === 1 ? "" : "s"} (0–${count - 1}).`,
  );
}

/** The request a preview sends: the prompt and frames of its scope, as a run's step would send them. */
interface PreviewRequest {
  config: ReturnType<typeof endpointConfigOf>;
  prompt: string;
  responseFormat: ReturnType<typeof answerJsonSchema> | null;
  cacheKey: string;
  scopeInput: ReturnType<typeof rubricScopeInput>;
  schema: ReturnType<typeof answerSchema>;
}

/** Calls the endpoint once (no cached answer): the raw answer, its parse, and the call's latency. */
async function askEndpoint(prisma: PrismaClient, deps: PreviewDeps, request: PreviewRequest) {
  const { config, prompt, responseFormat, cacheKey, scopeInput, schema } = request;
  // The same check as on save (a 400 endpoint_not_allowed), so an address refused since then gets the policy's own words.
  await assertEndpointUrlAllowed(config.baseUrl);
  const storage = deps.storage ?? getStorage();
  const images = await Promise.all(
    scopeInput.frames.map(async (frame) => ({
      url: await frameDataUrl(storage, frame, scopeInput.imageMaxSide),
      detail: config.imageDetail,
    })),
  );
  const client = deps.client ?? openAiCompatibleClient({ baseURL: config.baseUrl, apiKey: config.apiKey });
  const timeoutMs = Math.min(config.timeoutSeconds * 1000, MAX_PREVIEW_TIMEOUT_MS);
  const callStarted = performance.now();
  let result;
  try {
    // One attempt: a person is waiting, and a rate limit or a timeout is better said than retried for minutes.
    result = await client.complete(
      { model: config.model, system: null, text: prompt, images, temperature: config.temperature, responseFormat },
      { timeoutMs, signal: deps.signal },
    );
  } catch (error) {
    // Refused at connect time (a name that now resolves to a private address): the policy's 400, not the endpoint's failure.
    if (error instanceof LlmError && error.kind === "not_allowed") throw new EndpointNotAllowedError(error.message);
    if (error instanceof LlmError) throw new PreviewCallError(error, timeoutMs);
    throw error;
  }
  const latencyMs = Math.round(performance.now() - callStarted);
  const rawAnswer = result.text ?? result.refusal ?? "";
  const outcome = parseStructuredOutput(result.text, schema, {
    finishReason: result.finishReason,
    refusal: result.refusal,
    reasoning: result.reasoning,
  });
  // Only a valid answer is cached, as a run caches (a run would send a repair request for an invalid one).
  if (outcome.ok && !result.refusal) {
    await prisma.responseCache.createMany({
      data: [
        {
          key: cacheKey,
          model: config.model,
          responseText: result.text ?? "",
          finishReason: result.finishReason,
          promptTokens: result.promptTokens,
          completionTokens: result.completionTokens,
        },
      ],
      skipDuplicates: true,
    });
  }
  return { rawAnswer, outcome, latencyMs };
}

function parsedOf(
  definition: RubricDefinition,
  outcome: StructuredOutput<RubricAnswer>,
): Pick<RubricPreview, "parsed" | "parseError"> {
  if (!outcome.ok) return { parsed: null, parseError: outcome.error };
  const answer = outcome.value;
  return {
    parsed: Object.fromEntries(
      definition.criteria.map((c) => {
        const value = answer.values[c.id]!;
        return [
          c.id,
          { value, label: formatValue({ scale: criterionScale(c) }, value), reason: answer.reasons[c.id] ?? null },
        ];
      }),
    ),
    parseError: null,
  };
}

/**
 * The item of the video an item rubric's preview fills `{{item.<field>}}` from: named by its id in its file or its
 * FrameJury id, among the video's imported items that carry declared fields (lib/items/generic-items.ts).
 */
async function previewItem(
  prisma: PrismaClient,
  projectId: string,
  video: { id: string; relativePath: string },
  item: string | undefined,
) {
  if (!item)
    throw new ValidationError(
      "item: this rubric judges items; name one of the video's items (its id in the imported file).",
    );
  const found = await prisma.item.findFirst({
    where: {
      projectId,
      videoId: video.id,
      OR: [{ id: item }, { externalId: item }],
      payload: { path: ["fields"], not: Prisma.AnyNull },
    },
    orderBy: { createdAt: "desc" },
    select: { payload: true },
  });
  if (!found)
    throw new NotFoundError(
      `No item "${item}" of ${video.relativePath} with fields (import the rubric's items first).`,
    );
  return found;
}

/**
 * The frames a run would judge the video with: the latest frame set its frames mode needs (createRun in
 * lib/judge/runs/runs.ts picks it the same way), all its frames in time order.
 */
async function runFrames(
  prisma: PrismaClient,
  video: { id: string; relativePath: string; width: number | null; height: number | null },
  definition: RubricDefinition,
): Promise<FrameRef[]> {
  const requirement = framesRequirement(definition);
  const where =
    requirement.mode === "uniform" ? FRAME_SET_WHERE.uniform(requirement.count) : FRAME_SET_WHERE[requirement.mode];
  const accepts = requirement.mode === "uniform" ? requirement.accepts : undefined;
  const sets = await prisma.frameSet.findMany({
    where: { videoId: video.id, ...where },
    orderBy: { createdAt: "desc" },
    ...(accepts ? {} : { take: 1 }),
    select: {
      id: true,
      parameters: true,
      frames: { orderBy: { index: "asc" }, take: 1, select: { width: true, height: true } },
    },
  });
  const chosen = sets.find((set) => {
    if (!accepts) return true;
    const maxSide = (set.parameters as { maxSide?: unknown } | null)?.maxSide;
    const first = set.frames[0];
    return (
      first !== undefined &&
      accepts(video, {
        maxSide: typeof maxSide === "number" ? maxSide : null,
        width: first.width,
        height: first.height,
      })
    );
  });
  if (!chosen) {
    const needs =
      requirement.mode === "uniform"
        ? (requirement.label ?? `a uniform frame set of ${requirement.count} frames`)
        : "key frames";
    throw new ValidationError(
      `${video.relativePath} has no frames this rubric can use yet: it needs ${needs}. Extract them first.`,
    );
  }
  return prisma.frame.findMany({
    where: { frameSetId: chosen.id },
    orderBy: { index: "asc" },
    select: {
      id: true,
      index: true,
      timestampS: true,
      isKeyFrame: true,
      cluster: true,
      storageKey: true,
      sha256: true,
    },
  });
}

async function frameDataUrl(storage: ObjectStorage, frame: FrameRef, maxSide: number | undefined): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(frame.storageKey)) chunks.push(chunk as Buffer);
  return `data:image/jpeg;base64,${frameAsSent(Buffer.concat(chunks), maxSide).toString("base64")}`;
}
