import { disagrees } from "../task-modules/task-declaration";
import type { JudgedDeclaration } from "./judgment-target";

/**
 * When a reviewer's value counts as disagreeing with the judge's: a gap of at least the target's
 * declared disagreement gap (lib/task-modules/task-declaration.ts). `declaration` is the target's, read from the
 * project's catalogue (judgmentDeclaration).
 */
export function disagreesWithJudge(declaration: JudgedDeclaration, value: number, judgeValue: number | null): boolean {
  return disagrees(declaration, value, judgeValue);
}
