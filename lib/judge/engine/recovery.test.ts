import { describe, expect, it } from "vitest";
import { z } from "zod";
import { LlmError } from "../calls/llm-client";
import type { TaskDeclaration } from "../../task-modules/task-declaration";
import type { Answer } from "./answer";
import type { BuiltRequest } from "./build-request";
import { responseCacheKey } from "./cache-key";
import type { StepDefinition } from "../../task-modules/pipeline-types";
import { nextMove, type Asked, type RecoveryPlan } from "./recovery";

// The recovery loop's one decision, read from the answers so far: ask again (longer, or a repair), end, or fail.

const cacheParts = {
  model: "m",
  templateHash: "h",
  text: "Rate it.",
  frameSha256s: [],
  temperature: 0,
  imageDetail: "low",
  responseFormat: null,
};

function builtRequest(batch: BuiltRequest["batch"] = null): BuiltRequest {
  return {
    templateHash: "h",
    request: { model: "m", system: null, text: "Rate it.", temperature: 0, responseFormat: null, topLogprobs: null },
    media: async () => ({ images: [] }),
    cacheParts,
    cacheKey: responseCacheKey(cacheParts),
    callRecord: {
      runId: "r",
      stepResultId: "s",
      videoId: "v",
      text: "Rate it.",
      frameIds: [],
      saw: { mode: "images", frames: [] },
      sent: { detail: "low", imageMaxSide: null, grid: false, videoFrames: 0 },
    },
    batch,
  };
}

const step: StepDefinition = {
  id: "rate",
  label: "Rate",
  scope: "video",
  templateId: "t",
  schema: z.object({ score: z.number().int().min(0).max(10) }),
  dependsOn: () => [],
  input: () => ({ values: {}, frames: [] }),
  scores: (output) => [{ category: "score", value: (output as { score: number }).score }],
};

function plan(overrides: Partial<RecoveryPlan> = {}): RecoveryPlan {
  return {
    step,
    input: { values: {}, frames: [] },
    built: builtRequest(),
    endpoint: { model: "m", maxTokens: null },
    task: {} as TaskDeclaration,
    ...overrides,
  };
}

function answered(text: string | null, more: Partial<Answer> = {}): Answer {
  return {
    text,
    refusal: null,
    finishReason: "stop",
    promptTokens: 10,
    completionTokens: 5,
    fromCache: false,
    ...more,
  };
}

const asked = (why: Asked["why"], answer: Answer, request: Asked["request"] = builtRequest().request): Asked => ({
  why,
  request,
  answer,
});

describe("nextMove", () => {
  it("ends a step whose first answer is valid as done, with its scores and the answer to cache", () => {
    const move = nextMove([asked("first", answered('{"score": 7}'))], plan());
    expect(move).toMatchObject({
      next: "end",
      end: { status: "done", output: { score: 7 }, rawText: '{"score": 7}', error: null },
    });
    if (move.next !== "end") throw new Error("not ended");
    expect(move.end.scores).toEqual([{ category: "score", value: 7 }]);
    expect(move.end.cache).toMatchObject([
      { key: builtRequest().cacheKey, responseText: '{"score": 7}', replace: false },
    ]);
  });

  it("asks an answer cut off at the token limit again with a larger max_tokens, under its own cache key", () => {
    const move = nextMove(
      [asked("first", answered('{"sco', { finishReason: "length", completionTokens: 300 }))],
      plan(),
    );
    expect(move).toMatchObject({ next: "ask", ask: { why: "longer", request: { maxTokens: 1024 }, batch: null } });
    if (move.next !== "ask") throw new Error("no ask");
    expect(move.ask.cacheKey).toBe(responseCacheKey({ ...cacheParts, repairOf: "max_tokens 1024" }));
  });

  it("fails an answer cut off when the endpoint allows nothing longer, and one cut off again, saying how to raise it", () => {
    const cut = answered('{"sco', { finishReason: "length", completionTokens: 300 });
    const noLarger = nextMove([asked("first", cut)], plan({ endpoint: { model: "m", maxTokens: 256 } }));
    expect(noLarger.next).toBe("fail");
    if (noLarger.next !== "fail") throw new Error("not failed");
    expect(noLarger.error.kind).toBe("client");
    expect(noLarger.error.message).toMatch(
      /^Answer cut off at 300 tokens \(finish_reason "length"\)\. Raise .*now 256/,
    );

    const longerRequest = { ...builtRequest().request, maxTokens: 1024 };
    const again = nextMove(
      [asked("first", cut), asked("longer", { ...cut, completionTokens: 1024 }, longerRequest)],
      plan(),
    );
    if (again.next !== "fail") throw new Error("not failed");
    expect(again.error.message).toContain("Answer cut off at 1024 tokens");
    expect(again.error.message).toContain("also when asked again with max_tokens 1024");
  });

  it("sends one repair carrying the validation error, and keeps a batch step's repair in its batch", () => {
    const move = nextMove([asked("first", answered('{"score": 11}'))], plan({ built: builtRequest({ frames: [] }) }));
    expect(move).toMatchObject({
      next: "ask",
      ask: { why: "repair", request: { followUp: { previousAnswer: '{"score": 11}' } }, batch: { frames: [] } },
    });
    if (move.next !== "ask") throw new Error("no ask");
    expect(move.ask.request.followUp?.correction).toBeTruthy();
    expect(move.ask.cacheKey).toBe(responseCacheKey({ ...cacheParts, repairOf: '{"score": 11}' }));
  });

  it("repairs a batch step's answer cut off instead of asking it longer (a batch line has no second chance at its size)", () => {
    const move = nextMove(
      [asked("first", answered('{"sco', { finishReason: "length", completionTokens: 300 }))],
      plan({ built: builtRequest({ frames: [] }) }),
    );
    expect(move).toMatchObject({ next: "ask", ask: { why: "repair" } });
  });

  it("ends parse_failed with both errors when the repair fails too, and done with both answers' tokens when it succeeds", () => {
    const first = asked("first", answered("no JSON here"));
    const failed = nextMove([first, asked("repair", answered('{"score": 11}'))], plan());
    expect(failed).toMatchObject({ next: "end", end: { status: "parse_failed", scores: [], cache: [] } });
    if (failed.next !== "end") throw new Error("not ended");
    expect(failed.end.error).toContain(" Repair: ");
    expect(failed.end.rawText).toBe('no JSON here\n\n--- repair answer ---\n{"score": 11}');

    const repaired = nextMove([first, asked("repair", answered('{"score": 4}'))], plan());
    expect(repaired).toMatchObject({ next: "end", end: { status: "done", output: { score: 4 } } });
    if (repaired.next !== "end") throw new Error("not ended");
    expect(repaired.end.cache).toMatchObject([
      { responseText: '{"score": 4}', promptTokens: 20, completionTokens: 10 },
    ]);
  });

  it("never repairs the longer answer: invalid, it ends parse_failed", () => {
    const move = nextMove(
      [
        asked("first", answered('{"sco', { finishReason: "length", completionTokens: 300 })),
        asked("longer", answered("still not JSON"), { ...builtRequest().request, maxTokens: 1024 }),
      ],
      plan(),
    );
    expect(move).toMatchObject({ next: "end", end: { status: "parse_failed" } });
    if (move.next !== "end") throw new Error("not ended");
    expect(move.end.rawText).toBe('{"sco\n\n--- answer asked again with a larger max_tokens ---\nstill not JSON');
  });

  it("takes a raw-answer step's answer as it is, and caches no refusal", () => {
    const raw = { ...step, rawAnswer: true, scores: undefined };
    const move = nextMove([asked("first", answered("not JSON at all"))], plan({ step: raw }));
    expect(move).toMatchObject({
      next: "end",
      end: { status: "done", output: { text: "not JSON at all", refusal: null, finishReason: "stop" } },
    });
    const refused = nextMove([asked("first", answered(null, { refusal: "I can't." }))], plan({ step: raw }));
    expect(refused).toMatchObject({ next: "end", end: { status: "done", rawText: "I can't.", cache: [] } });
  });

  it("sends a failed attempt again after a backoff no shorter than retry-after, and fails the step when no retry may mend it", () => {
    const retry = { policy: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000 }, random: () => 0.5 };
    const limited = new LlmError("rate_limited", "Rate limited.", 429, 2500);
    expect(nextMove([], plan({ retry }), { error: limited, attempt: 1 })).toEqual({ next: "resend", delayMs: 2500 });
    const server = new LlmError("server", "Server error.", 500);
    // Exponential backoff with full jitter: base × 2^(attempt − 1) × random.
    expect(nextMove([], plan({ retry }), { error: server, attempt: 2 })).toEqual({ next: "resend", delayMs: 100 });
    // The last attempt's failure, and one no retry mends (a 400), fail the step with the error as it is.
    expect(nextMove([], plan({ retry }), { error: server, attempt: 3 })).toEqual({ next: "fail", error: server });
    const refused = new LlmError("client", "Bad request.", 400);
    expect(nextMove([], plan({ retry }), { error: refused, attempt: 1 })).toEqual({ next: "fail", error: refused });
  });
});
