/**
 * VBench-2.0 Human_Interaction (human_interaction.py): the VLM describes the interaction ("a person xx to another
 * person") and the video in detail; the text LLM judges whether the interaction matches the prompt and whether the
 * detailed description has more than one person. 1 when both are yes, else 0; the score is the mean.
 */
import { answerText } from "../answers";
import { known, questionCategory, stepId, valueOf, type Vbench2Dimension } from "../dimension";
import { textStep, vlmStep } from "../steps";

const DIMENSION = "Human_Interaction";
const describe = stepId(DIMENSION, "describe");
const details = stepId(DIMENSION, "details");
const interaction = stepId(DIMENSION, "judge_interaction");
const people = stepId(DIMENSION, "judge_people");

export const humanInteraction: Vbench2Dimension = {
  dimension: DIMENSION,
  steps: [
    vlmStep({
      dimension: DIMENSION,
      id: describe,
      label: `${DIMENSION}: describe the interaction`,
      templateId: "vbench2/human-interaction-describe",
    }),
    vlmStep({
      dimension: DIMENSION,
      id: details,
      label: `${DIMENSION}: describe the video`,
      templateId: "vbench2/human-interaction-details",
    }),
    textStep({
      dimension: DIMENSION,
      id: interaction,
      label: `${DIMENSION}: the interaction matches the prompt (text judge)`,
      templateId: "vbench2/human-interaction-judge",
      category: questionCategory(DIMENSION, 0),
      after: [describe],
      values: (context, outputs) => ({
        prompt1: (context.prompt ?? "").trim(),
        prompt2: (answerText(outputs.get(describe, 0)) ?? "").trim(),
      }),
    }),
    textStep({
      dimension: DIMENSION,
      id: people,
      label: `${DIMENSION}: more than one person (text judge)`,
      templateId: "vbench2/human-interaction-people",
      category: questionCategory(DIMENSION, 1),
      after: [details],
      values: (_context, outputs) => ({ description: (answerText(outputs.get(details, 0)) ?? "").trim() }),
    }),
  ],
  questions: (context) => [
    {
      text: `The video shows the interaction the prompt describes: ${(context.prompt ?? "").trim()}`,
      stepId: interaction,
    },
    { text: "The video shows more than one person.", stepId: people },
  ],
  videoValue: (answers) => (known(answers, 2) ? valueOf(answers[0] && answers[1] ? 1 : 0) : valueOf(null)),
};
