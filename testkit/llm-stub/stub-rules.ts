import { TASK_KITS, type TaskKit } from "../task-kits";
import { ALIGNMENT_JUDGE_STUB_RULE, ALIGNMENT_OPTIMIZER_STUB_RULE } from "./alignment-stub-rule";
import { ENDPOINT_TEST_RULE, VIDEO_PROBE_RULE } from "./endpoint-test-stub-rule";
import { PAIRWISE_STUB_RULE } from "./pairwise-stub-rule";
import { RUBRIC_STUB_RULE } from "./rubric-stub-rule";
import type { StubRule } from "./stub-rule";

export { makeContext, type StubRule } from "./stub-rule";

/**
 * TEST TOOL. The stand-in LLM's rule list: the alignment simulation's optimizer and judge (./alignment-stub-rule.ts),
 * the rubric tasks' rule (any rubric, from the answer format its prompt states), the pairwise judge's
 * (./pairwise-stub-rule.ts), every task folder's rules (`stubRules`
 * of its kit, lib/tasks/<id>/stub-rules.ts), then the endpoint test's and its video probe's; the first rule whose pattern matches a prompt
 * answers it, and FALLBACK_RULE answers the rest. A test with a task of its own passes `[...TASK_KITS, itsKit]`.
 */
export function defaultStubRules(kits: readonly TaskKit[] = TASK_KITS): StubRule[] {
  return [
    ALIGNMENT_OPTIMIZER_STUB_RULE,
    ALIGNMENT_JUDGE_STUB_RULE,
    RUBRIC_STUB_RULE,
    PAIRWISE_STUB_RULE,
    ...stubRuleOrder(kits).flatMap((task) => task.stubRules ?? []),
    ENDPOINT_TEST_RULE,
    VIDEO_PROBE_RULE,
  ];
}

/**
 * The tasks in TASK_FOLDER_IDS order, except that a task moves just before the first task named in its
 * `stubRulesBefore` (its prompts are narrower forms of that task's, which would otherwise answer them).
 */
function stubRuleOrder(kits: readonly TaskKit[]): TaskKit[] {
  const ordered: TaskKit[] = [];
  for (const task of kits) {
    const before = ordered.findIndex((placed) => task.stubRulesBefore?.includes(placed.id));
    if (before < 0) ordered.push(task);
    else ordered.splice(before, 0, task);
  }
  return ordered;
}

export const FALLBACK_RULE: StubRule = {
  name: "fallback",
  match: /[\s\S]*/,
  respond: (context) =>
    context.wantsJson
      ? JSON.stringify({ answer: "stub" })
      : "This is the FrameJury stub LLM. No rule matched the prompt.",
};
