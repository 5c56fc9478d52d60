/**
 * The video-QA task's declaration (seed 004, InstructionBench evaluation): one target per question, its
 * correctness, decided by FrameJury's letter extraction (multiple choice) or the judge (open questions, and
 * multiple-choice answers with no single letter). Results group by format, category, granularity and model.
 */
import type { GroupingDeclaration, MetricDeclaration, TaskDeclaration } from "../../task-modules/task-declaration";

const yesNo = {
  kind: "categorical",
  values: [
    { value: 1, label: "yes" },
    { value: 0, label: "no" },
  ],
} as const;

/** Seed 004's question categories (its Table 23); a set may use others, kept as given. */
export const SEED_QUESTION_CATEGORIES = [
  "Step Sequencing",
  "Specific Step Recognition",
  "Past Step Recall",
  "Future Step Prediction",
  "Intermediate Steps Recognition",
  "Object Attribute Recognition",
  "Object Existence in Steps",
  "Object Interaction Recognition",
  "Others",
] as const;

// Each grouping's value comes from the judged question (its `group` is its category), so the agreement
// report breaks reviewers' judgments down the same way the accuracy table does.
export const QA_GROUPINGS: GroupingDeclaration[] = [
  {
    id: "format",
    label: "Format",
    values: [
      { id: "mc", label: "multiple choice" },
      { id: "open", label: "open-ended" },
    ],
    itemField: "format",
  },
  {
    id: "category",
    label: "Category",
    values: SEED_QUESTION_CATEGORIES.map((id) => ({ id, label: id })),
    ofItem: true,
  },
  {
    id: "granularity",
    label: "Granularity",
    values: [
      { id: "coarse", label: "coarse-grained" },
      { id: "fine", label: "fine-grained" },
    ],
    itemField: "granularity",
  },
  // The evaluated models are the runs' endpoints: no fixed list (the agreement report's model breakdown).
  { id: "model", label: "Evaluated model", values: [] },
];

const yesNoMetric = (
  m: Pick<MetricDeclaration, "id" | "label" | "definition" | "aggregation">,
  positiveLabel: string,
): MetricDeclaration => ({
  ...m,
  scale: yesNo,
  level: "nominal",
  higherIsBetter: true,
  positive: { op: "==", value: 1, label: positiveLabel },
});

export const QA_TASK: TaskDeclaration = {
  id: "qa",
  label: "Video question answering (seed 004, InstructionBench)",
  subject: "question",
  targets: [
    {
      id: "correctness",
      label: "Correct",
      definition:
        "Is the evaluated model's answer to the question correct? Multiple choice: the option letter FrameJury reads from the answer is the correct one (the judge decides with seed 004's option-consistency prompt when no single letter can be read). Open: the judge finds the answer consistent with the reference answer (seed 004's answer-consistency prompt).",
      scale: {
        kind: "categorical",
        values: [
          { value: 1, label: "correct" },
          { value: 0, label: "wrong" },
        ],
      },
      level: "nominal",
      higherIsBetter: true,
      scope: "item",
      positive: { op: "==", value: 1, label: "correct" },
    },
  ],
  metrics: [
    yesNoMetric(
      {
        id: "correct",
        label: "Correct",
        definition: "The question was answered correctly with the video's frames.",
        aggregation:
          "1 when the correctness target is 1; no value when the answer is unanswerable (a call or the judge failed).",
      },
      "correct",
    ),
    yesNoMetric(
      {
        id: "correct_without_video",
        label: "Right without the video",
        definition:
          "The text-only baseline (no frames) answered the question correctly: its score may come from language priors.",
        aggregation: "1 when the baseline's answer was decided correct; no value without a baseline.",
      },
      "right without the video",
    ),
    yesNoMetric(
      {
        id: "judge_decided",
        label: "Judge decided",
        definition: "The LLM judge, not FrameJury's letter extraction, decided the answer's correctness.",
        aggregation: "1 for open questions and for multiple-choice answers with no single letter.",
      },
      "judge decided",
    ),
  ],
  groupings: QA_GROUPINGS,
  // The judge's decisions (and the letter's) are the scores: blind review withholds them.
  metricSteps: ["decide", "text_only_decide"],
  stepScopes: { answer: "item", decide: "item", text_only_answer: "item", text_only_decide: "item" },
  // Reviewers judge a model's answer, and each run has its own: the judgment carries the run.
  subjectPerRun: true,
};
