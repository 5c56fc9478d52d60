/** How VBench-2.0 reads its models' answers, and the outputs of steps it does not ask. */
import type { RawAnswer } from "../../task-modules/pipeline-types";

/** A step VBench would not have asked for this video (a gate said no, an earlier plot was not found): no call. */
export interface NotAsked {
  notAsked: string;
}

export type Vbench2Output = RawAnswer | NotAsked;

export function isNotAsked(output: unknown): output is NotAsked {
  return typeof output === "object" && output !== null && "notAsked" in output;
}

/** The answer's text as VBench gets it from the model (the refusal when a provider gives one instead). */
export function answerText(output: unknown): string | null {
  if (output === undefined || output === null || isNotAsked(output)) return null;
  const answer = output as RawAnswer;
  return answer.text || answer.refusal || "";
}

/** VBench's rule for every yes/no answer: `"yes" in text.lower()`; null when the step made no answer. */
export function saidYes(output: unknown): boolean | null {
  const text = answerText(output);
  return text === null ? null : text.toLowerCase().includes("yes");
}

/** VBench's split_by_numbered_list: split at every `\d+\.\s*`, strip the parts, drop the empty ones. */
export function splitByNumberedList(text: string): string[] {
  return text
    .split(/\d+\.\s*/)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}
