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
 *    `wrong_four_k` (30), `without_video_k` (31) and `with_video_k` (32), one check step per checking
 *    endpoint (the second's and third's ids end in `_c2`, `_c3`), decided by the majority rule of
 *    transform-attempts.ts. The checks' options are shuffled per candidate and attempt (the same order in
 *    both checks and for every checker); each check's output records the options it showed and the correct
 *    letter, so the decision is read back from the outputs alone. Each attempt's calls carry their own
 *    cache salt: the prompts are the same each time, and a retry must be asked anew.
 * Every construction call is text only: "with video" means with the clip's step annotations (Video_info).
 * A step a filter's removal (or an earlier passed attempt, or a failed check of the same attempt) makes
 * unnecessary is settled without a call, with a recorded {skipped: why}. Decisions follow from the stored
 * outputs alone (lib/tasks/construction/construct-state.ts); a curator's restores are read when the run starts
 * and kept in its settings (`restored`).
 * The answering and checking steps call `settings.checkerEndpointId` when set, else the run's endpoint; with
 * `settings.checkerEndpointIds` (one to three) the filters' answering steps call the first, and each of the
 * transformation's checks is asked of every one.
 */
import { z } from "zod";
import { clipInfoLines, templateFamily } from "./render-clip-info";
import {
  annotationAnswerSchema,
  bestOptionSchema,
  categorySchema,
  fourWrongAnswersSchema,
  judgementSchema,
  sixWrongAnswersSchema,
} from "./construction-outputs";
import { type CandidatePayload, latestRestoredFilters } from "./candidate-views";
import {
  attemptStepIds,
  checkerCount,
  checkLayoutSeed,
  constructState,
  fateWithRestores,
  filterDecisions,
  isSkipped,
  MAX_CHECKERS,
  shuffledCheckLayout,
  transformAttempts,
  type CheckLayout,
  type ConstructState,
  type OutputOf,
} from "./construct-state";
import { FILTER_IDS, type FilterId } from "./filter-funnel";
import { fourProblem, MAX_TRANSFORM_ATTEMPTS, transformOutcome } from "./transform-attempts";
import { extractOptionLetter } from "../qa/extract-letter";
import { indentedOptionLines } from "../qa/qa-answers";
import type { RawAnswer, StepDefinition, StepOutputs, StepRef, VideoContext } from "../../task-modules/pipeline-types";
import type { RegisteredPipeline } from "../../task-modules/pipeline-types";
import { QA_CONSTRUCT_TASK } from "./construction-tasks";

const endpointId = z.string().min(1).max(64);

export const qaConstructSettingsSchema = z
  .strictObject({
    /** The endpoint that answers and checks (Tables 24, 26, 28, 31, 32); default the run's own. */
    checkerEndpointId: endpointId.optional(),
    /**
     * One to three checking endpoints, as Appendix D asks three assistants: each transformation check
     * (Tables 31, 32) is asked of every one and decided by the majority; the filters' steps call the first.
     */
    checkerEndpointIds: z
      .array(endpointId)
      .min(1)
      .max(MAX_CHECKERS, `At most ${MAX_CHECKERS} checking endpoints.`)
      .refine((ids) => new Set(ids).size === ids.length, "The checking endpoints must be different endpoints.")
      .optional(),
    /** Filled when the run starts: the filters a curator undid, by candidate item id (any value sent is replaced). */
    restored: z.record(z.string(), z.array(z.enum(FILTER_IDS as [FilterId, ...FilterId[]]))).default({}),
  })
  .refine((s) => !s.checkerEndpointId || !s.checkerEndpointIds || s.checkerEndpointIds[0] === s.checkerEndpointId, {
    message: "checkerEndpointId, when given with checkerEndpointIds, must be its first endpoint.",
    path: ["checkerEndpointId"],
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
const restoredOf = (context: VideoContext, i: number): FilterId[] =>
  settingsOf(context).restored[context.items[i]!.id] ?? [];
const outputOfScope =
  (outputs: StepOutputs, i: number): OutputOf =>
  (stepId) =>
    outputs.get(stepId, i) ?? undefined;
/** The endpoint role of checker j (0-based): the first keeps the role a single checker had. */
const checkerRole = (j: number) => (j === 0 ? "checker" : `checker_${j + 1}`);
const checkersOf = (context: VideoContext) => checkerCount(settingsOf(context));
const videoInfo = (candidate: CandidatePayload) =>
  clipInfoLines(templateFamily(candidate.dataset), candidate.granularity, candidate.clip);

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
  {
    id: "categorise",
    label: "Categorise (Table 23)",
    templateId: "construction/categorise",
    schema: categorySchema,
    checker: false,
    after: null,
    filter: null,
    values: (c) => ({ question: c.question }),
  },
  {
    id: "blind_answer",
    label: "Blind filter: answer without the video (Table 24)",
    templateId: "qa/text-only-open",
    schema: z.custom<RawAnswer>(),
    rawAnswer: true,
    checker: true,
    after: null,
    filter: "blind",
    values: (c) => ({ question: c.question }),
  },
  {
    id: "blind_check",
    label: "Blind filter: consistent with the reference? (Table 28)",
    templateId: "qa/judge-open",
    schema: judgementSchema,
    checker: true,
    after: "blind_answer",
    filter: "blind",
    values: (c, outputs, i) => ({
      question: c.question,
      correct_answer: c.answer,
      student_answer: rawText(outputs.get("blind_answer", i) as RawAnswer),
    }),
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
    values: (c, outputs, i) => ({
      question: c.question,
      correct_answer: c.answer,
      student_answer: (outputs.get("tricky_answer", i) as { Answer: string }).Answer,
    }),
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
      const why = isSkipped(previous)
        ? previous.skipped
        : def.filter
          ? removedBefore(def.filter, context, outputs, i)
          : null;
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
  const earlier = transformAttempts(outputOf, correct, k - 1, checkersOf(context));
  const outcome = earlier.length ? transformOutcome(earlier, correct) : null;
  if (outcome?.state === "transformed") return `not needed: attempt ${outcome.attempt} passed`;
  return null;
}

/** Why attempt k's checks with the annotations are not needed: a check without them was skipped, or its majority picked the correct option. */
function withVideoNotNeeded(k: number, context: VideoContext, outputs: StepOutputs, i: number): string | null {
  const n = checkersOf(context);
  const ids = attemptStepIds(k, n);
  const withouts = ids.withoutVideoBy.map((id) => outputs.get(id, i));
  const skippedOne = withouts.find(isSkipped);
  if (skippedOne) return skippedOne.skipped;
  const attempt = transformAttempts(outputOfScope(outputs, i), candidateOf(context, i).answer, k, n).at(k - 1);
  if (!attempt?.options || !attempt.correctLetter) return null;
  const right = attempt.withoutVideo.filter(
    (answer) => answer !== null && extractOptionLetter(answer, attempt.options!).letter === attempt.correctLetter,
  ).length;
  if (right * 2 <= n) return null;
  return n === 1
    ? "not needed: the correct option was picked without the video"
    : `not needed: ${right} of ${n} checkers picked the correct option without the video`;
}

type NotNeeded = (context: VideoContext, outputs: StepOutputs, i: number) => string | null;

/**
 * A step of a transformation attempt that is settled without a call, as {skipped: why}, when `notNeeded` gives a
 * reason; asked otherwise, with `values` rendered into its template and the attempt's cache salt.
 */
function settledStep(salt: string) {
  return (
    step: Omit<StepDefinition, "settle" | "input">,
    values: (
      candidate: CandidatePayload,
      outputs: StepOutputs,
      i: number,
      context: VideoContext,
    ) => Record<string, string>,
    notNeeded: NotNeeded,
  ): StepDefinition => ({
    ...step,
    input: (i, context, outputs) => {
      const why = notNeeded(context, outputs, i);
      return {
        values: why === null ? values(candidateOf(context, i), outputs, i, context) : {},
        frames: [],
        data: { why },
        cacheSalt: salt,
      };
    },
    settle: (input) => skipped((input.data as { why: string | null }).why),
  });
}

/** A check step of an attempt: its input carries the layout, and its output records it beside the checker's answer. */
function layoutCheckStep(
  salt: string,
  layoutOf: (context: VideoContext, outputs: StepOutputs, i: number) => CheckLayout,
) {
  return (
    step: Omit<StepDefinition, "settle" | "input" | "schemaFor">,
    values: (candidate: CandidatePayload, options: string) => Record<string, string>,
    notNeeded: NotNeeded,
  ): StepDefinition => ({
    ...step,
    input: (i, context, outputs) => {
      const why = notNeeded(context, outputs, i);
      if (why !== null) return { values: {}, frames: [], data: { why }, cacheSalt: salt };
      const layout = layoutOf(context, outputs, i);
      return {
        values: values(candidateOf(context, i), indentedOptionLines(layout.options)),
        frames: [],
        data: { why, layout },
        cacheSalt: salt,
      };
    },
    schemaFor: (input) => {
      const layout = (input.data as { layout?: CheckLayout }).layout;
      return layout
        ? bestOptionSchema.transform((answer) => ({
            ...answer,
            options: layout.options,
            correctLetter: layout.correctLetter,
          }))
        : bestOptionSchema;
    },
    settle: (input) => skipped((input.data as { why: string | null }).why),
  });
}

function attemptSteps(k: number): StepDefinition[] {
  const ids = attemptStepIds(k, MAX_CHECKERS);
  const salt = `transform-attempt-${k}`;
  const plannedIds = (context: VideoContext) => attemptStepIds(k, checkersOf(context));
  const dependsOnPrevious = (i: number, context: VideoContext): StepRef[] =>
    k === 1
      ? [{ stepId: "filter_unspecific", scopeIndex: i }]
      : attemptStepIds(k - 1, checkersOf(context)).withVideoBy.map((stepId) => ({ stepId, scopeIndex: i }));
  const four = (outputs: StepOutputs, i: number) => outputs.get(ids.four, i) as string[];
  /** The checks' options: shuffled by the candidate's item id and the attempt, so every check of the attempt shows the same order. */
  const layoutOf = (context: VideoContext, outputs: StepOutputs, i: number): CheckLayout =>
    shuffledCheckLayout(four(outputs, i), candidateOf(context, i).answer, checkLayoutSeed(context.items[i]!.id, k));
  const withSettle = settledStep(salt);
  const checkStep = layoutCheckStep(salt, layoutOf);
  const problemOfFour = (context: VideoContext, outputs: StepOutputs, i: number) => {
    const six = outputs.get(ids.six, i) as string[];
    const problem = fourProblem(candidateOf(context, i).answer, six, four(outputs, i));
    return problem === null ? null : `not needed: ${problem}`;
  };
  const base = { scope: "item" as const };
  const by = (j: number) => (j === 0 ? "" : ` (checker ${j + 1})`);
  // Checker j's steps exist only in runs with more than j checkers; the first is always planned.
  const plannedFor = (j: number) => (j === 0 ? {} : { planned: (context: VideoContext) => checkersOf(context) > j });
  return [
    withSettle(
      {
        ...base,
        id: ids.six,
        label: `Attempt ${k}: six wrong answers (Table 29)`,
        templateId: "construction/wrong-answers-six",
        schema: sixWrongAnswersSchema,
        dependsOn: dependsOnPrevious,
      },
      (c) => ({ video_info: videoInfo(c), question: c.question, answer: c.answer }),
      (context, outputs, i) => attemptNotNeeded(k, context, outputs, i),
    ),
    withSettle(
      {
        ...base,
        id: ids.four,
        label: `Attempt ${k}: pick four (Table 30)`,
        templateId: "construction/wrong-answers-pick-four",
        schema: fourWrongAnswersSchema,
        dependsOn: (i) => [{ stepId: ids.six, scopeIndex: i }],
      },
      (c, outputs, i) => ({
        video_info: videoInfo(c),
        question: c.question,
        answer: c.answer,
        wrong_answers: (outputs.get(ids.six, i) as string[]).map((w) => `      - Wrong_answer: ${w}`).join("\n"),
      }),
      (context, outputs, i) =>
        isSkipped(outputs.get(ids.six, i)) ? (outputs.get(ids.six, i) as { skipped: string }).skipped : null,
    ),
    ...ids.withoutVideoBy.map((id, j) =>
      checkStep(
        {
          ...base,
          ...plannedFor(j),
          id,
          label: `Attempt ${k}: best option without the video (Table 31)${by(j)}`,
          templateId: "construction/best-option-without-video",
          schema: bestOptionSchema,
          endpoint: checkerRole(j),
          dependsOn: (i) => [{ stepId: ids.four, scopeIndex: i }],
        },
        (c, options) => ({ question: c.question, options }),
        (context, outputs, i) =>
          isSkipped(outputs.get(ids.four, i))
            ? (outputs.get(ids.four, i) as { skipped: string }).skipped
            : problemOfFour(context, outputs, i),
      ),
    ),
    ...ids.withVideoBy.map((id, j) =>
      checkStep(
        {
          ...base,
          ...plannedFor(j),
          id,
          label: `Attempt ${k}: best option with the annotations (Table 32)${by(j)}`,
          templateId: "construction/best-option-with-video",
          schema: bestOptionSchema,
          endpoint: checkerRole(j),
          dependsOn: (i, context) => plannedIds(context).withoutVideoBy.map((stepId) => ({ stepId, scopeIndex: i })),
        },
        (c, options) => ({ video_info: videoInfo(c), question: c.question, options }),
        (context, outputs, i) => withVideoNotNeeded(k, context, outputs, i),
      ),
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
  settingsAtStart: async (prisma, settings, itemIds) => ({
    ...(settings as QaConstructSettings),
    restored: await latestRestoredFilters(prisma, itemIds),
  }),
  frames: () => ({ mode: "any" }),
  items: { kind: "qa_candidate", setNoun: "candidate", setField: "candidateSetId" },
  endpointIds: (settings) => {
    const parsed = qaConstructSettingsSchema.parse(settings ?? {});
    const ids = parsed.checkerEndpointIds ?? [parsed.checkerEndpointId];
    return Object.fromEntries(Array.from({ length: MAX_CHECKERS }, (_, j) => [checkerRole(j), ids[j]]));
  },
  summarize: (_scores, context, _settings, outputs) => {
    const items: QaConstructItemSummary[] = context.items.map((item, i) => ({
      itemId: item.id,
      ...constructState(
        outputOfScope(outputs, i),
        candidateOf(context, i).answer,
        restoredOf(context, i),
        checkersOf(context),
      ),
    }));
    return { items };
  },
  metricValues: () => ({}),
  itemMetrics: (summary) =>
    (summary as { items: QaConstructItemSummary[] }).items.map((item) => ({
      itemId: item.itemId,
      values: {
        kept: item.fate.state === "pending" ? null : item.fate.state === "kept" ? 1 : 0,
        transformed:
          item.transform?.state === "transformed" ? 1 : item.transform?.state === "could_not_transform" ? 0 : null,
      },
    })),
};
