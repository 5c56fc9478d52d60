/**
 * A rubric run's judge spans: each criterion that localises, on the frames its answer names where it fails. The
 * numbers are the call's own frames (1 = its first); consecutive numbers are one span, from the first named frame's
 * video frame to the last's, and spans of one criterion that touch (neighbouring clusters) merge. An item subject's
 * spans are about its item.
 */
import { videoFrameOfSample } from "../judge/engine/judge-span-drafts";
import type { JudgeSpanDraft, JudgeSpanInput } from "../task-modules/judge-span-types";
import { consecutiveRuns, mergeNeighbouringSpans } from "../spans/judge-spans";
import { rubricCalls } from "./rubric-calls";
import { rubricTargetId } from "./rubric-declaration";
import type { RubricDefinition } from "./rubric-definition";
import { localizedCriteria } from "./rubric-localize";
import { scopeCount, scopeFrames } from "./rubric-scopes";

/** The frame numbers a stored answer gives a criterion: whole numbers of the call's frames, sorted, once each. */
function namedFrames(output: unknown, criterionId: string, frameCount: number): number[] {
  const frames = (output as { frames?: unknown } | null | undefined)?.frames;
  if (!frames || typeof frames !== "object" || !Object.hasOwn(frames, criterionId)) return [];
  const list = (frames as Record<string, unknown>)[criterionId];
  if (!Array.isArray(list)) return [];
  const numbers = list.filter((n): n is number => Number.isInteger(n) && n >= 1 && n <= frameCount);
  return [...new Set(numbers)].sort((a, b) => a - b);
}

/** Does a stored answer give this criterion a value or frames (the call judged it)? */
function answersCriterion(output: unknown, criterionId: string): boolean {
  const answer = output as { values?: unknown; frames?: unknown } | null | undefined;
  return [answer?.values, answer?.frames].some((o) => !!o && typeof o === "object" && Object.hasOwn(o, criterionId));
}

export function rubricJudgeSpans(key: number, definition: RubricDefinition, input: JudgeSpanInput): JudgeSpanDraft[] {
  const criteria = localizedCriteria(definition);
  if (criteria.length === 0) return [];
  const drafts: JudgeSpanDraft[] = [];
  for (let scope = 0; scope < scopeCount(definition, input.context); scope++) {
    // A criterion's answer is in the output of the call that judged it (lib/rubrics/rubric-calls.ts): the first
    // that names it.
    const outputs = rubricCalls(definition).map((call) => input.outputs.get(call.stepId, scope));
    const own = scopeFrames(definition, scope, input.context);
    const itemId = definition.subject.kind === "item" ? (input.context.items[scope]?.id ?? "") : "";
    for (const criterion of criteria) {
      const output = outputs.find((o) => answersCriterion(o, criterion.id));
      for (const run of consecutiveRuns(namedFrames(output, criterion.id, own.length))) {
        const where = run.first === run.last ? `frame ${run.first}` : `frames ${run.first}–${run.last}`;
        drafts.push({
          label: rubricTargetId(key, criterion.id),
          itemId,
          startFrame: videoFrameOfSample(input.times, own[run.first - 1]!.timestampS),
          endFrame: videoFrameOfSample(input.times, own[run.last - 1]!.timestampS),
          note: `${criterion.name} fails on ${where} of the judge's call${scopeCount(definition, input.context) > 1 && definition.subject.kind !== "item" ? ` ${scope + 1}` : ""}`,
        });
      }
    }
  }
  return mergeNeighbouringSpans(drafts);
}
