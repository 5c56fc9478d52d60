/**
 * A hallucination run's stored settings as the judge-setups comparison shows them: the aggregation, and the verdict
 * rule as "<on> <op> <threshold>" (the worst category at or above it, or the overall below it).
 */
export function hallucinationSetupSettings(stored: unknown): { aggregation: string | null; verdict: string | null } {
  const settings = (stored ?? {}) as { aggregation?: string; verdict?: { on?: string; threshold?: number } };
  return {
    aggregation: settings.aggregation ?? null,
    verdict: settings.verdict
      ? `${settings.verdict.on ?? "max_category"} ${settings.verdict.on === "overall" ? "<" : "≥"} ${settings.verdict.threshold ?? ""}`.trim()
      : null,
  };
}
