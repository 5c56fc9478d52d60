"use client";

import { Bar, BarChart, CartesianGrid, ErrorBar, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { LeaderboardGenerator } from "@/lib/leaderboard/leaderboard";
import { ChartFrame } from "@/components/charts/chart-frame";
import { leaderboardValueFormat } from "./leaderboard-tables";

/** Each model's mean as a bar with its 95% interval as an error bar, in ranking order, on the metric's scale. */
export function LeaderboardChart({
  generators,
  dimension,
  percent,
  domain,
}: {
  generators: readonly LeaderboardGenerator[];
  dimension: string;
  percent: boolean;
  domain: [number, number];
}) {
  const fmt = leaderboardValueFormat(percent);
  const data = generators.flatMap((g) => {
    const cell = g.dimensions[dimension];
    if (!cell || cell.score === null) return [];
    const ci = cell.lower !== null && cell.upper !== null ? ([cell.lower, cell.upper] as const) : null;
    return [
      {
        model: g.model,
        value: cell.score,
        ci,
        error: ci ? [Math.max(0, cell.score - ci[0]), Math.max(0, ci[1] - cell.score)] : [0, 0],
      },
    ];
  });
  if (data.length === 0) return null;
  return (
    <div data-testid="leaderboard-chart">
      <ChartFrame title={`${dimension} by model (95% CI)`}>
        <ResponsiveContainer width="100%" height={Math.max(120, 40 + data.length * 28)}>
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" domain={domain} fontSize={11} tickFormatter={(v: number) => fmt(v)} />
            <YAxis
              type="category"
              dataKey="model"
              interval={0}
              width={170}
              fontSize={11}
              tickFormatter={(label: string) => (label.length > 26 ? `${label.slice(0, 25)}…` : label)}
            />
            <Tooltip
              content={({ payload }) => {
                const d = payload?.[0]?.payload as (typeof data)[number] | undefined;
                return d ? (
                  <div className="rounded border border-slate-200 bg-white px-2 py-1 text-xs shadow">
                    {d.model}: {fmt(d.value)}
                    {d.ci ? ` [${fmt(d.ci[0])}, ${fmt(d.ci[1])}]` : ""}
                  </div>
                ) : null;
              }}
            />
            <Bar dataKey="value" fill="#6366f1">
              <ErrorBar dataKey="error" width={6} stroke="#1e1b4b" direction="x" />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </ChartFrame>
    </div>
  );
}
