/**
 * The declarations of seed 004's two construction pipelines. They score no video and no answer: their
 * results are Q&A candidates and the filters' and transformation's decisions about them, read by the
 * construction screens through lib/tasks/construction/candidate-views.ts. The per-candidate metrics below are what
 * lists and filters can use.
 */
import { attemptStepIds, MAX_CHECKERS } from "./construct-state";
import { MAX_TRANSFORM_ATTEMPTS } from "./transform-attempts";
import type { MetricDeclaration, TaskDeclaration } from "../../task-modules/task-declaration";

const yesNoMetric = (
  m: Pick<MetricDeclaration, "id" | "label" | "definition" | "aggregation">,
  positiveLabel: string,
): MetricDeclaration => ({
  ...m,
  scale: {
    kind: "categorical",
    values: [
      { value: 1, label: "yes" },
      { value: 0, label: "no" },
    ],
  },
  level: "nominal",
  higherIsBetter: true,
  positive: { op: "==", value: 1, label: positiveLabel },
});

export const QA_GENERATE_TASK: TaskDeclaration = {
  id: "qa_generate",
  label: "Q&A generation from step annotations (seed 004, InstructionBench)",
  subject: "question",
  targets: [],
  metrics: [
    {
      id: "pairs",
      label: "Generated pairs",
      definition:
        "How many question-answer pairs the generator wrote for the clip (coarse- and fine-grained together).",
      aggregation: "The number of pairs in the two generation steps' valid answers.",
      scale: { kind: "numeric", min: 0, max: 100, step: 1 },
      level: "ratio",
      higherIsBetter: true,
      positive: { op: ">=", threshold: 1, label: "some pairs" },
    },
  ],
  groupings: [],
  stepScopes: { generate_coarse: "item", generate_fine: "item" },
};

export const QA_CONSTRUCT_TASK: TaskDeclaration = {
  id: "qa_construct",
  label: "Q&A construction: categorise, filter, transform (seed 004, InstructionBench)",
  subject: "question",
  targets: [],
  metrics: [
    yesNoMetric(
      {
        id: "kept",
        label: "Kept by the filters",
        definition: "No filter removed the candidate (or a curator restored it).",
        aggregation: "1 when every filter decided and none removed it; no value while a filter has not decided.",
      },
      "kept",
    ),
    yesNoMetric(
      {
        id: "transformed",
        label: "Transformed",
        definition: "An attempt turned the kept candidate into a multiple-choice question.",
        aggregation: "1 when an attempt passed, 0 after ten failed attempts; no value otherwise.",
      },
      "transformed",
    ),
  ],
  groupings: [],
  // Every step judges one candidate: the four filters' steps, then each transformation attempt's.
  stepScopes: Object.fromEntries(
    [
      "categorise",
      "blind_answer",
      "blind_check",
      "filter_hallucination",
      "tricky_answer",
      "tricky_check",
      "filter_unspecific",
      // One check step per checker (up to three): `without_video_k`, `without_video_k_c2`, …
      ...Array.from({ length: MAX_TRANSFORM_ATTEMPTS }, (_, i) => {
        const ids = attemptStepIds(i + 1, MAX_CHECKERS);
        return [ids.six, ids.four, ...ids.withoutVideoBy, ...ids.withVideoBy];
      }).flat(),
    ].map((id) => [id, "item" as const]),
  ),
};
