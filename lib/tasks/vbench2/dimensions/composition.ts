/**
 * VBench-2.0 Composition (composition.py). auxiliary_info is {question: [descriptions], judge: [gate, allOrNothing]}.
 * With `judge[0]` the VLM is first asked whether the video shows only one creature; no, and VBench stops asking and
 * gives the video 1/len(question) (not -1: it stays in the mean). Otherwise each description is asked; the value is
 * 1 or 0 (all found or not) with `judge[1]`, else the share of descriptions found. The score is the mean over videos.
 */
import type { VideoContext } from "../../../task-modules/pipeline-types";
import {
  auxiliaryInfo,
  known,
  missingInfo,
  questionCategory,
  stepId,
  valueOf,
  type QuestionRef,
  type Vbench2Dimension,
} from "../dimension";
import { timeInstructionValues } from "../frames";
import { afterNo, vlmStep } from "../steps";

const DIMENSION = "Composition";
const MOST_DESCRIPTIONS = 8;
export const COMPOSITION_GATE_QUESTION = "Does the video show only one creature?";

interface CompositionInfo {
  question: string[];
  judge: [boolean, boolean];
}

function compositionInfo(context: Pick<VideoContext, "auxiliaryInfo">): CompositionInfo | null {
  const info = auxiliaryInfo(context, DIMENSION) as Partial<CompositionInfo> | undefined;
  if (
    !info ||
    !Array.isArray(info.question) ||
    !info.question.every((q) => typeof q === "string") ||
    !Array.isArray(info.judge) ||
    info.judge.length < 2
  )
    return null;
  return { question: info.question, judge: [Boolean(info.judge[0]), Boolean(info.judge[1])] };
}

const gate = stepId(DIMENSION, "gate");
const gated = (context: VideoContext) => compositionInfo(context)?.judge[0] === true;

export const composition: Vbench2Dimension = {
  dimension: DIMENSION,
  steps: [
    vlmStep({
      dimension: DIMENSION,
      id: gate,
      label: `${DIMENSION}: only one creature`,
      templateId: "vbench2/composition-gate",
      category: questionCategory(DIMENSION, 0),
      planned: gated,
    }),
    ...Array.from({ length: MOST_DESCRIPTIONS }, (_, k) =>
      vlmStep({
        dimension: DIMENSION,
        id: stepId(DIMENSION, `d${k + 1}`),
        label: `${DIMENSION}: description ${k + 1}`,
        templateId: "vbench2/composition",
        // Questions are numbered with the gate first when there is one.
        category: (context) => questionCategory(DIMENSION, k + (gated(context) ? 1 : 0)),
        planned: (context) => (compositionInfo(context)?.question.length ?? 1) > k,
        missing: (context) => (compositionInfo(context) ? null : missingInfo(DIMENSION)),
        values: (context, sampled) => ({
          ...timeInstructionValues(sampled),
          question: compositionInfo(context)!.question[k]!,
        }),
        after: (context) => (gated(context) ? [gate] : []),
        notAsked: (context, outputs) =>
          gated(context)
            ? afterNo(gate, "not asked: the video does not show only one creature")(context, outputs)
            : null,
      }),
    ),
  ],
  questions: (context) => {
    const info = compositionInfo(context);
    if (!info) return [];
    const descriptions: QuestionRef[] = info.question.map((text, k) => ({
      text: `The video contains: ${text}`,
      stepId: stepId(DIMENSION, `d${k + 1}`),
    }));
    return info.judge[0] ? [{ text: COMPOSITION_GATE_QUESTION, stepId: gate }, ...descriptions] : descriptions;
  },
  videoValue: (answers, context) => {
    const info = compositionInfo(context);
    if (!info) return valueOf(null);
    const n = info.question.length;
    const found = info.judge[0] ? answers.slice(1) : answers;
    if (info.judge[0] && answers[0] === false) return valueOf(1 / n);
    if (info.judge[0] && answers[0] === null) return valueOf(null);
    if (!known(found, n)) return valueOf(null);
    const yes = found.filter(Boolean).length;
    return valueOf(info.judge[1] ? (yes === n ? 1 : 0) : yes / n);
  },
};
