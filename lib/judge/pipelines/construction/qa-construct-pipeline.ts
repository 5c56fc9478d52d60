/**
 * Q&A construction (seed 004, InstructionBench, Appendix D): per candidate of one generation run's candidate
 * set, in the seed's order —
 * 1. `categorise` (Table 23);
 * 2. the blind filter: `blind_answer` (Table 24, the question alone) and `blind_check` (Table 28 against the
 *    reference answer): consistent ⇒ removed;
 * 3. `filter_hallucination` (Table 25): "Yes" ⇒ removed;
 * 4. the tricky filter: `tricky_answer` (Table 26, with the annotations) and `tricky_check` (Table 28): not
 *    consistent ⇒ removed;
 * 5. `filter_unspecific` (Table 27): "Yes" ⇒ removed;
 * 6. the multiple-choice transformation of kept candidates, attempts k = 1..10 of `wrong_six_k` (Table 29),
 *    `wrong_four_k` (30), `without_video_k` (31) and `with_video_k` (32), the correct answer placed last (E)
 *    among the four wrong ones. Each attempt's calls carry their own cache salt: the prompts are the same
 *    each time, and a retry must be asked anew.
 * Every construction call is text only: "with video" means with the clip's step annotations (Video_info).
 * A step a filter's removal (or an earlier passed attempt, or a failed check of the same attempt) makes
 * unnecessary is settled without a call, with a recorded {skipped: why}. Decisions follow from the stored
 * outputs alone (lib/construction/construct-state.ts); a curator's restores are read when the run starts
 * and kept in its settings (`restored`).
 * The answering and checking steps call `settings.checkerEndpointId` when set, else the run's endpoint.
 */
import { z } from "zod";
import { clipInfoLines, templateFamily } from "../../../construction/render-clip-info";
import {
  annotationAnswerSchema,
  bestOptionSchema,
  categorySchema,
  fourWrongAnswersSchema,
  judgementSchema,
  sixWrongAnswersSchema,
} from "../../../construction/construction-outputs";
import { type CandidatePayload, latestRestoredFilters } from "../../../construction/candidate-views";
import { attemptStepIds, CHECK_CORRECT_LETTER, checkOptions, constructState, fateWithRestores, filterDecisions, isSkipped, transformAttempts, type ConstructState, type OutputOf } from "../../../construction/construct-state";
import { FILTER_IDS, type FilterId } from "../../../construction/filter-funnel";
import { fourProblem, MAX_TRANSFORM_ATTEMPTS, transformOutcome } from "../../../construction/transform-attempts";
import { extractOptionLetter } from "../../../qa/extract-letter";
import { indentedOptionLines } from "../../../qa/qa-answers";
import type { RawAnswer, StepDefinition, StepOutputs, StepRef, VideoContext } from "../../engine/pipeline";
import type { RegisteredPipeline } from "../index";
import { QA_CONSTRUCT_TASK } from "./construction-tasks";

export const qaConstructSettingsSchema = z.strictObject({
  /** The endpoint that answers and checks (Tables 24, 26, 28, 31, 32); default the run's own. */
  checkerEndpointId: z.string().min(1).max(64).optional(),
  /** Filled when the run starts: the filters a curator undid, by candidate item id (any value sent is replaced). */
  restored: z.record(z.string(), z.array(z.enum(FILTER_IDS as [FilterId, ...FilterId[]]))).default({}),
});
export type QaConstructSettings = z.output<typeof qaConstructSettingsSchema>;

const candidateOf = (context: VideoContext, i: number) => context.items[i]!.payload as CandidatePayload;
// Every step of every candidate asks: the run's settings are parsed once per video.
const parsedSettings = new WeakMap<VideoContext, QaConstructSettings>();
function settingsOf(context: VideoContext): QaConstructSettings {
  let settings = parsedSettings.get(context);
  if (!settings) parsedSettings.set(context, (settings = qaConstructSettingsSchema.parse(context.settings ?? {})));
  return settings;
}
const restoredOf = (context: VideoContext, i: number): FilterId[] => settingsOf(context).restored[context.items[i]!.id] ?? [];
const outputOfScope = (outputs: StepOutputs, i: number): OutputOf => (stepId) => outputs.get(stepId, i) ?? undefined;
const videoInfo = (candidate: CandidatePayload) => clipInfoLines(templateFamily(candidate.dataset), candidate.granularity, candidate.clip);

/** Why a step of the filters' chain after `filter` need not run for this candidate (an earlier filter removed it), or null. */
function removedBefore(filter: FilterId, context: VideoContext, outputs: StepOutputs, i: number): string | null {
  const decisions = filterDecisions(outputOfScope(outputs, i));
  const restored = restoredOf(context, i);
  for (const earlier of FILTER_IDS) {
    if (earlier === filter) return null;
    const decision = decisions[earlier];
    if (decision?.removed && !restored.includes(earlier)) return `skipped: removed by ${earlier}`;
  }
  return null;
}

const skipped = (why: string | null) => (why === null ? null : { skipped: why });

interface ChainStep {
  id: string;
  label: string;
  templateId: string;
  schema: z.ZodType;
  checker: boolean;
  after: string | null;
  /** The filter this step belongs to: it is settled when an earlier filter removed the candidate. */
  filter: FilterId | null;
  rawAnswer?: boolean;
  values(candidate: CandidatePayload, outputs: StepOutputs, i: number): Record<string, string>;
}

const rawText = (answer: RawAnswer) => (answer.text.trim() ? answer.text : (answer.refusal ?? answer.text));

const CHAIN: ChainStep[] = [
  { id: "categorise", label: "Categorise (Table 23)", templateId: "construction/categorise", schema: categorySchema, checker: false, after: null, filter: null, values: (c) => ({ question: c.question }) },
  { id: "blind_answer", label: "Blind filter: answer without the video (Table 24)", templateId: "qa/text-only-open", schema: z.custom<RawAnswer>(), rawAnswer: true, checker: true, after: null, filter: "blind", values: (c) => ({ question: c.question }) },
  {
    id: "blind_check",
    label: "Blind filter: consistent with the reference? (Table 28)",
    templateId: "qa/judge-open",
    schema: judgementSchema,
    checker: true,
    after: "blind_answer",
    filter: "blind",
    values: (c, outputs, i) => ({ question: c.question, correct_answer: c.answer, student_answer: rawText(outputs.get("blind_answer", i) as RawAnswer) }),
  },
  {
    id: "filter_hallucination",
    label: "Hallucination filter (Table 25)",
    templateId: "construction/filter-hallucination",
    schema: judgementSchema,
    checker: false,
    after: "blind_check",
    filter: "hallucination",
    values: (c) => ({ video_info: videoInfo(c), question: c.question }),
  },
  {
    id: "tricky_answer",
    label: "Tricky filter: answer with the annotations (Table 26)",
    templateId: "construction/answer-with-annotations",
    schema: annotationAnswerSchema,
    checker: true,
    after: "filter_hallucination",
    filter: "tricky",
    values: (c) => ({ question: c.question, video_info: videoInfo(c) }),
  },
  {
    id: "tricky_check",
    label: "Tricky filter: consistent with the reference? (Table 28)",
    templateId: "qa/judge-open",
    schema: judgementSchema,
    checker: true,
    after: "tricky_answer",
    filter: "tricky",
    values: (c, outputs, i) => ({ question: c.question, correct_answer: c.answer, student_answer: (outputs.get("tricky_answer", i) as { Answer: string }).Answer }),
  },
  {
    id: "filter_unspecific",
    label: "Unspecific answer filter (Table 27)",
    templateId: "construction/filter-unspecific",
    schema: judgementSchema,
    checker: false,
    after: "tricky_check",
    filter: "unspecific",
    values: (c) => ({ video_info: videoInfo(c), question: c.question, answer: c.answer }),
  },
];

/** A step of the filters' chain: settled, with no call, when an earlier filter removed the candidate. */
function chainStep(def: ChainStep): StepDefinition {
  return {
    id: def.id,
    label: def.label,
    scope: "item",
    templateId: def.templateId,
    schema: def.schema,
    ...(def.rawAnswer ? { rawAnswer: true } : {}),
    ...(def.checker ? { endpoint: "checker" } : {}),
    dependsOn: (i) => (def.after ? [{ stepId: def.after, scopeIndex: i }] : []),
    input: (i, context, outputs) => {
      const previous = def.after ? outputs.get(def.after, i) : undefined;
      const why = isSkipped(previous) ? previous.skipped : def.filter ? removedBefore(def.filter, context, outputs, i) : null;
      // A removed candidate's prompt is never rendered.
      return { values: why === null ? def.values(candidateOf(context, i), outputs, i) : {}, frames: [], data: { why } };
    },
    settle: (input) => skipped((input.data as { why: string | null }).why),
  };
}

const chainSteps: StepDefinition[] = CHAIN.map(chainStep);

/**
 * Why attempt k's steps are not needed (the candidate is not kept, or an earlier attempt passed), or null.
 */
function attemptNotNeeded(k: number, context: VideoContext, outputs: StepOutputs, i: number): string | null {
  const outputOf = outputOfScope(outputs, i);
  const fate = fateWithRestores(filterDecisions(outputOf), restoredOf(context, i));
  if (fate.state === "removed") return `skipped: removed by ${fate.by}`;
  if (fate.state === "pending") return `skipped: the ${fate.at} filter has not decided`;
  const correct = candidateOf(context, i).answer;
  const earlier = transformAttempts(outputOf, correct, k - 1);
  const outcome = earlier.length ? transformOutcome(earlier, correct) : null;
  if (outcome?.state === "transformed") return `not needed: attempt ${outcome.attempt} passed`;
  return null;
}

function attemptSteps(k: number): StepDefinition[] {
  const ids = attemptStepIds(k);
  const salt = `transform-attempt-${k}`;
  const dependsOnPrevious = (i: number): StepRef[] => (k === 1 ? [{ stepId: "filter_unspecific", scopeIndex: i }] : [{ stepId: attemptStepIds(k - 1).withVideo, scopeIndex: i }]);
  const four = (outputs: StepOutputs, i: number) => outputs.get(ids.four, i) as string[];
  const withSettle = (
    step: Omit<StepDefinition, "settle" | "input">,
    values: (candidate: CandidatePayload, outputs: StepOutputs, i: number) => Record<string, string>,
    notNeeded: (context: VideoContext, outputs: StepOutputs, i: number) => string | null,
  ): StepDefinition => ({
    ...step,
    input: (i, context, outputs) => {
      const why = notNeeded(context, outputs, i);
      return { values: why === null ? values(candidateOf(context, i), outputs, i) : {}, frames: [], data: { why }, cacheSalt: salt };
    },
    settle: (input) => skipped((input.data as { why: string | null }).why),
  });
  const problemOfFour = (context: VideoContext, outputs: StepOutputs, i: number) => {
    const six = outputs.get(ids.six, i) as string[];
    const problem = fourProblem(candidateOf(context, i).answer, six, four(outputs, i));
    return problem === null ? null : `not needed: ${problem}`;
  };
  const options = (c: CandidatePayload, outputs: StepOutputs, i: number) => indentedOptionLines(checkOptions(four(outputs, i), c.answer));
  const base = { scope: "item" as const };
  return [
    withSettle(
      { ...base, id: ids.six, label: `Attempt ${k}: six wrong answers (Table 29)`, templateId: "construction/wrong-answers-six", schema: sixWrongAnswersSchema, dependsOn: dependsOnPrevious },
      (c) => ({ video_info: videoInfo(c), question: c.question, answer: c.answer }),
      (context, outputs, i) => attemptNotNeeded(k, context, outputs, i),
    ),
    withSettle(
      { ...base, id: ids.four, label: `Attempt ${k}: pick four (Table 30)`, templateId: "construction/wrong-answers-pick-four", schema: fourWrongAnswersSchema, dependsOn: (i) => [{ stepId: ids.six, scopeIndex: i }] },
      (c, outputs, i) => ({ video_info: videoInfo(c), question: c.question, answer: c.answer, wrong_answers: (outputs.get(ids.six, i) as string[]).map((w) => `      - Wrong_answer: ${w}`).join("\n") }),
      (context, outputs, i) => (isSkipped(outputs.get(ids.six, i)) ? (outputs.get(ids.six, i) as { skipped: string }).skipped : null),
    ),
    withSettle(
      { ...base, id: ids.withoutVideo, label: `Attempt ${k}: best option without the video (Table 31)`, templateId: "construction/best-option-without-video", schema: bestOptionSchema, endpoint: "checker", dependsOn: (i) => [{ stepId: ids.four, scopeIndex: i }] },
      (c, outputs, i) => ({ question: c.question, options: options(c, outputs, i) }),
      (context, outputs, i) => (isSkipped(outputs.get(ids.four, i)) ? (outputs.get(ids.four, i) as { skipped: string }).skipped : problemOfFour(context, outputs, i)),
    ),
    withSettle(
      { ...base, id: ids.withVideo, label: `Attempt ${k}: best option with the annotations (Table 32)`, templateId: "construction/best-option-with-video", schema: bestOptionSchema, endpoint: "checker", dependsOn: (i) => [{ stepId: ids.withoutVideo, scopeIndex: i }] },
      (c, outputs, i) => ({ video_info: videoInfo(c), question: c.question, options: options(c, outputs, i) }),
      (context, outputs, i) => {
        const without = outputs.get(ids.withoutVideo, i);
        if (isSkipped(without)) return without.skipped;
        const c = candidateOf(context, i);
        const picked = extractOptionLetter((without as { Best_option: string }).Best_option, checkOptions(four(outputs, i), c.answer)).letter;
        return picked === CHECK_CORRECT_LETTER ? "not needed: the correct option was picked without the video" : null;
      },
    ),
  ];
}

export interface QaConstructItemSummary extends ConstructState {
  itemId: string;
}

export const qaConstructPipeline: RegisteredPipeline = {
  id: "qa_construct",
  label: "Q&A construction: categorise, filter, transform (seed 004)",
  task: QA_CONSTRUCT_TASK,
  steps: [...chainSteps, ...Array.from({ length: MAX_TRANSFORM_ATTEMPTS }, (_, k) => attemptSteps(k + 1)).flat()],
  settingsSchema: qaConstructSettingsSchema,
  settingsAtStart: async (prisma, settings, itemIds) => ({ ...(settings as QaConstructSettings), restored: await latestRestoredFilters(prisma, itemIds) }),
  frames: () => ({ mode: "any" }),
  items: { kind: "qa_candidate" },
  endpointIds: (settings) => ({ checker: qaConstructSettingsSchema.parse(settings ?? {}).checkerEndpointId }),
  summarize: (_scores, context, _settings, outputs) => {
    const items: QaConstructItemSummary[] = context.items.map((item, i) => ({
      itemId: item.id,
      ...constructState(outputOfScope(outputs, i), candidateOf(context, i).answer, restoredOf(context, i)),
    }));
    return { items };
  },
  metricValues: () => ({}),
  itemMetrics: (summary) =>
    (summary as { items: QaConstructItemSummary[] }).items.map((item) => ({
      itemId: item.itemId,
      values: {
        kept: item.fate.state === "pending" ? null : item.fate.state === "kept" ? 1 : 0,
        transformed: item.transform?.state === "transformed" ? 1 : item.transform?.state === "could_not_transform" ? 0 : null,
      },
    })),
};
