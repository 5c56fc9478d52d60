/**
 * A chart on screen as a file of its own: its <svg> cloned with every style the page's CSS gave it written inline (the
 * file has no stylesheet), a title, the page's background behind it and its legend drawn under the plot; then, for a
 * PNG, that file drawn on a canvas at twice its size. Browser code: it reads the live DOM's computed styles.
 */
import type { LegendEntry } from "./chart-legend";

const SVG_NS = "http://www.w3.org/2000/svg";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

/** What the page's stylesheets may set on a chart's shapes and text, resolved to values per element. */
const STYLE_PROPERTIES = [
  "color",
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-dasharray",
  "stroke-linecap",
  "stroke-linejoin",
  "opacity",
  "visibility",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
] as const;

const GENERIC_FONT = /(?:^|,)\s*(?:sans-serif|serif|monospace|system-ui|ui-sans-serif)\s*$/;
const LEGEND_ROW = 18;
const LEGEND_FONT_SIZE = 12;

export interface ChartSvgOptions {
  /** The chart's name: the file's <title>. */
  title: string;
  /** The series as the page's legend shows them, drawn under the plot. */
  legend?: readonly LegendEntry[];
}

export interface SerialisedChart {
  /** A standalone SVG document. */
  svg: string;
  width: number;
  height: number;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const positive = (n: number) => Number.isFinite(n) && n > 0;

function viewBoxOf(svg: SVGSVGElement): Box | null {
  const parts = (svg.getAttribute("viewBox") ?? "")
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return null;
  const [x, y, width, height] = parts as [number, number, number, number];
  return positive(width) && positive(height) ? { x, y, width, height } : null;
}

/** The chart's size on screen; else its width and height attributes; else its view box. */
function sizeOf(svg: SVGSVGElement, viewBox: Box | null): { width: number; height: number } {
  const rect = svg.getBoundingClientRect();
  if (positive(rect.width) && positive(rect.height)) return { width: rect.width, height: rect.height };
  const width = Number.parseFloat(svg.getAttribute("width") ?? "");
  const height = Number.parseFloat(svg.getAttribute("height") ?? "");
  if (positive(width) && positive(height)) return { width, height };
  return viewBox ? { width: viewBox.width, height: viewBox.height } : { width: 600, height: 300 };
}

/** The first background colour behind the chart that is not transparent (a card's, the page's); white when none. */
function backgroundBehind(element: Element): string {
  for (let e: Element | null = element; e; e = e.parentElement) {
    const color = getComputedStyle(e).backgroundColor;
    if (color && color !== "transparent" && !/^rgba\(.*,\s*0\)$/.test(color)) return color;
  }
  return "#ffffff";
}

/** Every style the page's CSS gave `original` written on `copy`, its class names (which mean nothing in a file) dropped. */
function inlineStyles(original: Element, copy: Element) {
  const computed = getComputedStyle(original);
  const declarations = STYLE_PROPERTIES.flatMap((property) => {
    const value = computed.getPropertyValue(property).trim();
    return value ? [`${property}: ${value}`] : [];
  });
  const own = copy.getAttribute("style");
  const style = [...declarations, ...(own ? [own] : [])].join("; ");
  if (style) copy.setAttribute("style", style);
  copy.removeAttribute("class");
}

function svgElement<K extends keyof SVGElementTagNameMap>(name: K, attributes: Record<string, string | number>) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/** The legend's entries in rows under the plot, wrapped at the chart's width; returns the height they take. */
function drawLegend(root: SVGSVGElement, entries: readonly LegendEntry[], top: number, width: number, color: string) {
  let x = 8;
  let row = 0;
  for (const entry of entries) {
    const entryWidth = 24 + entry.name.length * LEGEND_FONT_SIZE * 0.6 + 16;
    if (x > 8 && x + entryWidth > width) {
      x = 8;
      row += 1;
    }
    const y = top + row * LEGEND_ROW + LEGEND_ROW / 2;
    const line = { x1: x, y1: y, x2: x + 18, y2: y, stroke: entry.color, "stroke-width": 2 };
    root.append(svgElement("line", entry.dash ? { ...line, "stroke-dasharray": entry.dash } : line));
    const text = svgElement("text", { x: x + 24, y: y + 4, "font-size": LEGEND_FONT_SIZE, fill: color });
    text.textContent = entry.name;
    root.append(text);
    x += entryWidth;
  }
  return entries.length === 0 ? 0 : (row + 1) * LEGEND_ROW + 8;
}

/**
 * The chart as a standalone SVG document: the namespaces declared, a <title>, a background rectangle in the colour
 * behind the chart on the page, every element's styles inline, the font named with a generic fallback, the legend
 * under the plot.
 */
export function serialiseChartSvg(source: SVGSVGElement, options: ChartSvgOptions): SerialisedChart {
  const viewBox = viewBoxOf(source);
  const { width, height } = sizeOf(source, viewBox);
  const plot = source.cloneNode(true) as SVGSVGElement;
  const originals = [source, ...source.querySelectorAll("*")];
  const copies = [plot, ...plot.querySelectorAll("*")];
  originals.forEach((original, i) => inlineStyles(original, copies[i]!));
  // Its size on the page is its size in the file: a CSS size (recharts draws at 100% of its box) would stretch it
  // over the legend's rows below it.
  plot.style.removeProperty("width");
  plot.style.removeProperty("height");
  plot.setAttribute("x", "0");
  plot.setAttribute("y", "0");
  plot.setAttribute("width", String(width));
  plot.setAttribute("height", String(height));
  if (!viewBox) plot.setAttribute("viewBox", `0 0 ${width} ${height}`);

  const sourceStyle = getComputedStyle(source);
  const font = sourceStyle.fontFamily || "sans-serif";
  const root = svgElement("svg", { version: "1.1", role: "img" });
  root.setAttributeNS(XMLNS_NS, "xmlns", SVG_NS);
  root.setAttributeNS(XMLNS_NS, "xmlns:xlink", "http://www.w3.org/1999/xlink");
  root.setAttribute("style", `font-family: ${GENERIC_FONT.test(font) ? font : `${font}, sans-serif`}`);
  const title = svgElement("title", {});
  title.textContent = options.title;
  const background = svgElement("rect", { x: 0, y: 0, width: "100%", height: "100%", fill: backgroundBehind(source) });
  root.append(title, background, plot);
  const legendHeight = drawLegend(root, options.legend ?? [], height, width, sourceStyle.color || "#475569");
  const total = height + legendHeight;
  root.setAttribute("width", String(width));
  root.setAttribute("height", String(total));
  root.setAttribute("viewBox", `0 0 ${width} ${total}`);
  const text = new XMLSerializer().serializeToString(root);
  return { svg: `<?xml version="1.0" encoding="UTF-8"?>\n${text}`, width, height: total };
}

/** The serialised chart drawn on a canvas at `scale` times its size (sharp in print), as a PNG. */
export async function chartPng(chart: SerialisedChart, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([chart.svg], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const image = new Image();
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error("The browser could not draw the chart's SVG."));
      image.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = Math.ceil(chart.width * scale);
    canvas.height = Math.ceil(chart.height * scale);
    const context = canvas.getContext("2d");
    if (!context) throw new Error("This browser has no canvas to draw the PNG on.");
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, chart.width, chart.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The canvas gave no PNG."))), "image/png"),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** A file name from the chart's title: lower case, words joined by hyphens. */
export function chartFileName(title: string, extension: "svg" | "png"): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `framejury_${slug || "chart"}.${extension}`;
}

/** Hands the browser a file to save, as a download link clicked once. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob by the next task; revoking at once cancels it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
