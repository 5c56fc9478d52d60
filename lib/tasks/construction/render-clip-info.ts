/**
 * The "## Input:" block of seed 004's generation templates: a clip's theme, duration and "key action within
 * specific time intervals", formatted as each dataset family's table prints its worked example.
 *
 * - HiREST (Tables 4–5) and YouCook2 (6–7), third person: "video theme" / "recipe type", the duration, and one
 *   line per step, "35s ∼ 48s : clean out the face", with whole seconds as the datasets give them.
 * - Ego4D Goal-Step (Tables 8 and 20), first person: "video goal", steps as "0.0s ∼ 27.16s: <category>(<text>)"
 *   with their substeps one level deeper in parentheses; times as Python prints a float (the seed's scripts did).
 * - Ego-Exo4D (Tables 21–22): "video scenario", steps like Ego4D's, no substeps.
 * - Other data (Table 10's generalized template): "Video Goal" and "Key Actions Within Specific Time Intervals"
 *   as the example printed in Tables 17–19 shows them, "<category> (<text>)" with a space; no duration line, as there.
 *
 * The seed's PDF text shows "similar-to\sim" where its LaTeX had "∼"; the model is given "∼". Ego4D's worked
 * example omits the duration line its instruction mentions; it is printed for every family, because the
 * instructions of every table say the input includes it.
 */
import type { AnnotatedStep, AnnotationDataset } from "./step-annotations";

export type TemplateFamily = "hirest" | "youcook2" | "ego4d" | "egoexo4d" | "generic";
export type Granularity = "coarse" | "fine";

export const TILDE = "∼";

export function templateFamily(dataset: AnnotationDataset): TemplateFamily {
  switch (dataset) {
    case "hirest":
      return "hirest";
    case "youcook2":
      return "youcook2";
    case "ego4d-goalstep":
      return "ego4d";
    case "egoexo4d":
      return "egoexo4d";
    case "generic":
      return "generic";
  }
}

/** Seconds as Python's str(float) prints them: 0 → "0.0", 27.2 → "27.2", 1e21 stays positional. */
export function pythonFloat(seconds: number): string {
  if (Number.isInteger(seconds)) return `${seconds}.0`;
  return String(seconds);
}

export interface ClipInfo {
  theme: string | null;
  /** The clip's length in seconds (the video's duration when it is used whole). */
  duration: number | null;
  steps: readonly AnnotatedStep[];
}

const firstPersonStep = (step: AnnotatedStep) =>
  `${pythonFloat(step.start)}s ${TILDE} ${pythonFloat(step.end)}s: ${step.category ? `${step.category}(${step.text})` : step.text}`;

/** The clip's info without its heading line: what the filtering and transformation templates put under "Video_info:". */
export function clipInfoLines(family: TemplateFamily, granularity: Granularity, clip: ClipInfo): string {
  return renderClipInfo(family, granularity, clip).split("\n").slice(1).join("\n");
}

export function renderClipInfo(family: TemplateFamily, granularity: Granularity, clip: ClipInfo): string {
  const theme = clip.theme ?? "unknown";
  if (family === "generic") {
    const line = (step: AnnotatedStep) =>
      `${pythonFloat(step.start)}s ${TILDE} ${pythonFloat(step.end)}s: ${step.category ? `${step.category} (${step.text})` : step.text}`;
    return [
      "   - Instructional Video Clip Info (a segment extracted from the original video):",
      `      - Video Goal: ${theme}`,
      "      - Key Actions Within Specific Time Intervals (divided into steps and substeps, shown by different indents):",
      ...clip.steps.flatMap((step) => [
        `        - ${line(step)}`,
        ...step.substeps.map((sub) => `           - (${line(sub)})`),
      ]),
    ].join("\n");
  }
  const duration = clip.duration === null ? [] : [`      - duration: ${pythonFloat(clip.duration)}s`];
  if (family === "hirest" || family === "youcook2") {
    return [
      "   - video_info:",
      `      - ${family === "hirest" ? "video theme" : "recipe type"}: ${theme}`,
      ...duration,
      "      - key action within specific time intervals:",
      ...clip.steps.map((step) => `        - ${step.start}s ${TILDE} ${step.end}s : ${step.text}`),
    ].join("\n");
  }
  const layers =
    family === "egoexo4d"
      ? ""
      : granularity === "coarse"
        ? "(are divided into steps and substeps, shown by different indents)"
        : "(consisting of two layers: actions and sub-actions, indicated by different idents)";
  return [
    "   - Instructional Video Clip Info(a segment extracted from the original video):",
    `      - ${family === "ego4d" ? "video goal" : "video scenario"}: ${theme}`,
    ...duration,
    `      - key action within specific time intervals${layers}:`,
    ...clip.steps.flatMap((step) => [
      `        - ${firstPersonStep(step)}`,
      ...(family === "ego4d" ? step.substeps.map((sub) => `           - (${firstPersonStep(sub)})`) : []),
    ]),
  ].join("\n");
}

/** The template id of a family and granularity (prompts/construction/generate-<family>-<granularity>.md). */
export function generationTemplateId(family: TemplateFamily, granularity: Granularity): string {
  return `construction/generate-${family}-${granularity}`;
}
