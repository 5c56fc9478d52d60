import { installedTaskModules } from "../../lib/task-modules/installed-task-modules";
import type { TaskModule } from "../../lib/tasks/task-module";
import { ALIGNMENT_JUDGE_STUB_RULE, ALIGNMENT_OPTIMIZER_STUB_RULE } from "./alignment-stub-rule";
import { ENDPOINT_TEST_RULE } from "./endpoint-test-stub-rule";
import { RUBRIC_STUB_RULE } from "./rubric-stub-rule";
import type { StubRule } from "./stub-rule";

export { makeContext, type StubRule } from "./stub-rule";

/**
 * TEST TOOL. The stand-in LLM's rule list: the alignment simulation's optimizer and judge (testkit/llm-stub/alignment-stub-rule.ts), the rubric tasks' rule (any rubric, from the answer format its
 * prompt states), every registered task's rules (`stubRules` of its TaskModule,
 * lib/tasks/<id>/stub-rules.ts), then the endpoint test's; the first rule whose pattern matches a prompt
 * answers it, and FALLBACK_RULE answers the rest. Read at call time, so a task registered while a test
 * runs (registerTaskModule) is answered by its own rules.
 */
export function defaultStubRules(modules: readonly TaskModule[] = installedTaskModules()): StubRule[] {
  return [
    ALIGNMENT_OPTIMIZER_STUB_RULE,
    ALIGNMENT_JUDGE_STUB_RULE,
    RUBRIC_STUB_RULE,
    ...stubRuleOrder(modules).flatMap((task) => task.stubRules ?? []),
    ENDPOINT_TEST_RULE,
  ];
}

/**
 * The tasks in registry order, except that a task moves just before the first task named in its
 * `stubRulesBefore` (its prompts are narrower forms of that task's, which would otherwise answer them).
 */
function stubRuleOrder(modules: readonly TaskModule[]): TaskModule[] {
  const ordered: TaskModule[] = [];
  for (const task of modules) {
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
