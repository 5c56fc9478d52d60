import { formatInterval, formatStatistic } from "@/lib/format/numbers";

/** Links from the dashboard to the items behind a number: the video list with filters, or one video. */
export function videoListHref(projectId: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== "") search.set(key, String(value));
  const query = search.toString();
  return `/projects/${projectId}/videos${query ? `?${query}` : ""}`;
}

export function videoHref(projectId: string, videoId: string, runId?: string): string {
  return `/projects/${projectId}/videos/${videoId}${runId ? `?runId=${encodeURIComponent(runId)}` : ""}`;
}

export const yesNo = (v: 0 | 1) => (v === 1 ? "yes" : "no");

/** The dashboard's statistics, at the app's one precision for them (lib/format/numbers.ts). */
export const fmt = formatStatistic;
export const fmtCi = formatInterval;
