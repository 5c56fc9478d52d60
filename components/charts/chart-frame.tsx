"use client";

import { type ReactNode, useRef, useState } from "react";
import { ChartLegend, type LegendEntry } from "./chart-legend";
import { chartFileName, chartPng, saveFile, serialiseChartSvg } from "./chart-svg";

/**
 * Every chart's frame: the plot (whose first <svg> is the chart), its legend under it, and buttons that download the
 * chart as an SVG or a PNG at twice its size, both with the legend and the title, for a paper or slides.
 */
export function ChartFrame({
  title,
  legend,
  className,
  children,
}: {
  /** The chart's name, in the files' title and name. */
  title: string;
  legend?: readonly LegendEntry[];
  /** The plot's box (its size: the legend and the buttons never take from it). */
  className?: string;
  children: ReactNode;
}) {
  const plot = useRef<HTMLDivElement>(null);
  return (
    <div className="flex flex-col gap-2">
      <div ref={plot} className={className}>
        {children}
      </div>
      {legend && <ChartLegend entries={legend} />}
      <ChartDownloads plot={plot} title={title} legend={legend} />
    </div>
  );
}

function ChartDownloads({
  plot,
  title,
  legend,
}: {
  plot: React.RefObject<HTMLDivElement | null>;
  title: string;
  legend?: readonly LegendEntry[];
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const serialise = () => {
    const svg = plot.current?.querySelector("svg");
    if (!svg) throw new Error("The chart is not drawn yet.");
    return serialiseChartSvg(svg, { title, legend });
  };
  const download = async (format: "svg" | "png") => {
    setProblem(null);
    try {
      const chart = serialise();
      const blob = format === "svg" ? new Blob([chart.svg], { type: "image/svg+xml" }) : await chartPng(chart);
      saveFile(blob, chartFileName(title, format));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  const button = "rounded border border-slate-300 bg-white px-2 py-0.5 text-slate-700 hover:bg-slate-50";
  return (
    <div className="flex flex-wrap items-center justify-end gap-2 text-xs" data-testid="chart-downloads">
      {problem && (
        <span role="alert" className="text-red-700">
          {problem}
        </span>
      )}
      <button type="button" className={button} onClick={() => void download("svg")}>
        Download SVG
      </button>
      <button type="button" className={button} onClick={() => void download("png")}>
        Download PNG
      </button>
    </div>
  );
}
