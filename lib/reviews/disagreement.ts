import { disagrees } from "../task-modules/task-declaration";
import { type JudgedDeclaration, judgmentDeclaration } from "./judgment-target";

/**
 * When a reviewer's value counts as disagreeing with the judge's: a gap of at least the target's
 * declared disagreement gap (lib/task-modules/task-declaration.ts). `target` is the declaration, or a
 * judgment's target type (and the score's category) to look it up by.
 */
export function disagreesWithJudge(
  target: string | JudgedDeclaration,
  value: number,
  judgeValue: number | null,
  category?: string | null,
): boolean {
  const declaration = typeof target === "string" ? judgmentDeclaration(target, category) : target;
  return disagrees(declaration, value, judgeValue);
}
