import { z } from "zod";

/**
 * A union of two request shapes told apart by whether one key is present (a run request with a `manifest`, or
 * without). Zod's plain union reports a body that fits neither as "Invalid input" with no path; this one reports the
 * issues of the shape the body chose, with their paths, so a missing `ensemble.temperature` is named as such.
 */
export function keyedUnion<W extends z.ZodType, O extends z.ZodType>(key: string, withKey: W, withoutKey: O) {
  return z.union([withKey, withoutKey], {
    error: (issue) => {
      if (issue.code !== "invalid_union" || issue.errors.length !== 2) return undefined;
      const chosen = hasKey(issue.input, key) ? issue.errors[0]! : issue.errors[1]!;
      if (chosen.length === 0) return undefined;
      return chosen.map((i) => `${i.path.map(String).join(".") || "input"}: ${i.message}`).join("; ");
    },
  });
}

function hasKey(input: unknown, key: string): boolean {
  return (
    typeof input === "object" &&
    input !== null &&
    Object.hasOwn(input, key) &&
    (input as Record<string, unknown>)[key] !== undefined
  );
}
