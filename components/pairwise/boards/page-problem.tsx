import { notFound } from "next/navigation";
import { z } from "zod";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { isAppError, isAppErrorCode } from "@/lib/errors";
import { WithheldError } from "@/lib/visibility/withheld";

/**
 * A pairwise page's read: its answer, or the problem to show (a bad query, a 4xx of the operation), or why it is
 * withheld (blind pairs left to review); an unknown set is the 404 page, anything else is thrown on.
 */
export async function readOrProblem<T>(
  read: () => Promise<T>,
): Promise<{ data: T | null; problem: string | null; withheld: WithheldError | null }> {
  const none = { data: null, problem: null, withheld: null };
  try {
    return { ...none, data: await read() };
  } catch (error) {
    if (isAppErrorCode(error, "not_found")) notFound();
    if (error instanceof WithheldError) return { ...none, withheld: error };
    if (error instanceof z.ZodError) return { ...none, problem: error.issues.map((i) => i.message).join(" ") };
    if (isAppError(error)) return { ...none, problem: error.message };
    throw error;
  }
}

export function ProblemNote({ problem, withheld = null }: { problem: string | null; withheld?: WithheldError | null }) {
  if (withheld) return <WithheldNotice message={withheld.message} withheld={withheld.withheld} />;
  if (!problem) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="pairwise-problem"
    >
      {problem}
    </p>
  );
}
