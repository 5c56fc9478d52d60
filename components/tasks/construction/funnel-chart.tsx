"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { type LegendEntry } from "@/components/charts/chart-legend";
import { ChartFrame } from "@/components/charts/chart-frame";

export interface FunnelBar {
  label: string;
  kept: number;
  removed: number;
  pending: number;
}

const SERIES: readonly (LegendEntry & { key: "kept" | "removed" | "pending" })[] = [
  { key: "kept", name: "kept", color: "#4f46e5" },
  { key: "removed", name: "removed", color: "#f87171" },
  { key: "pending", name: "pending", color: "#cbd5e1" },
];

/** The funnel as stacked bars: what each stage keeps, removes and has not decided yet. */
export function FunnelChart({ stages }: { stages: FunnelBar[] }) {
  return (
    <div className="w-full" data-testid="funnel-chart">
      <ChartFrame title="Candidates kept, removed and pending at each stage" legend={SERIES}>
        <div className="h-64 w-full" role="img" aria-label="Candidates kept, removed and pending at each stage">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={stages} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 11 }} interval={0} />
              <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
              <Tooltip />
              {SERIES.map((s) => (
                <Bar key={s.key} dataKey={s.key} stackId="a" fill={s.color} isAnimationActive={false} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      </ChartFrame>
    </div>
  );
}
