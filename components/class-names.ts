// Class-name helpers shared by server and client components. This module has no "use client": a
// function exported from a client module can only be rendered or passed as a prop from the server,
// never called there (calling buttonClass() from a server page made it a 500).

export function buttonClass(variant: "primary" | "secondary" | "danger" = "primary"): string {
  const base = "inline-flex items-center rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-50";
  if (variant === "secondary") return `${base} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`;
  if (variant === "danger") return `${base} border border-red-300 bg-white text-red-700 hover:bg-red-50`;
  return `${base} bg-indigo-600 text-white hover:bg-indigo-700`;
}

/**
 * On a highlighted row (indigo-50), the muted greys and ambers fall just under WCAG AA's 4.5:1 (slate-500 4.26,
 * amber-700 4.49): text inside the row steps one shade darker, in both themes (the dark palette mirrors the step).
 */
export const ON_TINTED_ROW = "[&_.text-slate-500]:text-slate-600 [&_.text-amber-700]:text-amber-800";

type Rgb = readonly [number, number, number];

/** WCAG 2's relative luminance of an sRGB colour (0–255 channels). */
function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2's contrast ratio of two colours, 1–21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The page's card colour behind a tint: white in the light theme, the dark palette's white (slate-900) in the dark. */
const CARD: Record<"light" | "dark", Rgb> = { light: [255, 255, 255], dark: [15, 23, 43] };
const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

/**
 * The text colour classes for a cell tinted `rgb` at opacity `alpha` over a card: black or white, whichever
 * contrasts more with the blended colour, chosen for each theme (the tint blends with a white card in the light
 * theme and a dark one in the dark). Literal colours, since the dark palette remaps `white` to a dark grey.
 * Black rather than a dark grey: some tints' luminance leaves slate-900 under 4.5:1 where black keeps it.
 */
export function textOnTint(rgb: Rgb, alpha: number): string {
  const pick = (theme: "light" | "dark") => {
    const card = CARD[theme];
    const blended = rgb.map((c, i) => c * alpha + card[i]! * (1 - alpha)) as unknown as Rgb;
    return contrastRatio(blended, WHITE) >= contrastRatio(blended, BLACK) ? "white" : "black";
  };
  return `${pick("light") === "white" ? "text-[#fff]" : "text-black"} ${pick("dark") === "white" ? "dark:text-[#fff]" : "dark:text-black"}`;
}
