"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface FunnelBar {
  label: string;
  kept: number;
  removed: number;
  pending: number;
}

/** The funnel as stacked bars: what each stage keeps, removes and has not decided yet. */
export function FunnelChart({ stages }: { stages: FunnelBar[] }) {
  return (
    <div
      className="h-64 w-full"
      data-testid="funnel-chart"
      role="img"
      aria-label="Candidates kept, removed and pending at each stage"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={stages} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval={0} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="kept" stackId="a" fill="#4f46e5" isAnimationActive={false} />
          <Bar dataKey="removed" stackId="a" fill="#f87171" isAnimationActive={false} />
          <Bar dataKey="pending" stackId="a" fill="#cbd5e1" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
