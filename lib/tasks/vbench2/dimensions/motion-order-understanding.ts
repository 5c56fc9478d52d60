/**
 * VBench-2.0 Motion_Order_Understanding (motion_order_understanding.py): the VLM returns the action order on the
 * template "1. ; 2. ."; an answer with no "2." cannot be split and the video gets -1 (left out of the mean). Else
 * the text LLM (with the file's four few-shot exchanges) judges each part against the expected action; 1 when both
 * are yes. More than 90% of the videos at -1 makes the score 0.
 */
import { answerText } from "../answers";
import { meanOfTally } from "../../../leaderboard/leaderboard";
import {
  auxiliaryInfo,
  excluded,
  known,
  missingInfo,
  questionCategory,
  stepId,
  valueOf,
  type Vbench2Dimension,
} from "../dimension";
import type { VideoContext } from "../../../task-modules/pipeline-types";
import { textStep, vlmStep } from "../steps";

const DIMENSION = "Motion_Order_Understanding";
const describe = stepId(DIMENSION, "describe");

function actions(context: Pick<VideoContext, "auxiliaryInfo">): string[] | null {
  const info = auxiliaryInfo(context, DIMENSION);
  return Array.isArray(info) && info.length >= 2 && info.every((a) => typeof a === "string")
    ? (info as string[])
    : null;
}

/** `answer_llava.split('2.')`, or null when it has fewer than two parts. */
function orderParts(answer: string | null): string[] | null {
  if (answer === null) return null;
  const parts = answer.trim().split("2.");
  return parts.length < 2 ? null : parts;
}

const UNPARSABLE = "the VLM's action order has no \"2.\" to split it at (VBench's -1)";

export const motionOrderUnderstanding: Vbench2Dimension = {
  dimension: DIMENSION,
  steps: [
    vlmStep({
      dimension: DIMENSION,
      id: describe,
      label: `${DIMENSION}: the action order`,
      templateId: "vbench2/motion-order-describe",
      missing: (context) => (actions(context) ? null : missingInfo(DIMENSION)),
    }),
    ...[0, 1].map((k) =>
      textStep({
        dimension: DIMENSION,
        id: stepId(DIMENSION, `judge${k + 1}`),
        label: `${DIMENSION}: action ${k + 1} (text judge)`,
        templateId: "vbench2/motion-order-judge",
        category: questionCategory(DIMENSION, k),
        after: [describe],
        notAsked: (_context, outputs) =>
          orderParts(answerText(outputs.get(describe, 0))) ? null : `not asked: ${UNPARSABLE}`,
        values: (context, outputs) => ({
          prompt1: actions(context)?.[k] ?? "",
          prompt2: orderParts(answerText(outputs.get(describe, 0)))?.[k] ?? "",
        }),
      }),
    ),
  ],
  questions: (context) =>
    (actions(context) ?? []).slice(0, 2).map((action, k) => ({
      text: `Action ${k + 1} of the order is done: ${action}`,
      stepId: stepId(DIMENSION, `judge${k + 1}`),
    })),
  judgeExclusion: (_context, outputs) => {
    const answer = answerText(outputs.get(describe, 0));
    return answer !== null && orderParts(answer) === null ? UNPARSABLE : null;
  },
  videoValue: (answers, _context, judgeExclusion) => {
    if (known(answers, 2)) return valueOf(answers[0] && answers[1] ? 1 : 0);
    return judgeExclusion ? excluded(judgeExclusion) : valueOf(null);
  },
  // motion_order_understanding.py: `if count > 0.9 * len(video_results): return 0`, count being the -1 videos.
  score: (tally) => (tally.videos > 0 && tally.excluded > 0.9 * tally.videos ? 0 : meanOfTally(tally)),
};
