import { describeScoreSettings } from "@/lib/tasks/hallucination/video-outputs";

/** The run's score settings (aggregation, verdict rule) in words, in the video page's run header. */
export function ScoreSettings({ settings }: { settings: unknown }) {
  const { aggregation, verdictRule } = describeScoreSettings(settings);
  return (
    <p data-testid="run-settings">
      Score settings: aggregation <b>{aggregation}</b>; verdict: {verdictRule}. Prompt versions are listed under the
      outputs.
    </p>
  );
}
