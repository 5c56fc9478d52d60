/** The 18 VBench-2.0 evaluation dimensions, spelled and ordered as upstream's `dimension_list`. */
export const VBENCH_DIMENSIONS = [
  "Camera_Motion",
  "Complex_Plot",
  "Human_Anatomy",
  "Human_Identity",
  "Human_Clothes",
  "Diversity",
  "Composition",
  "Dynamic_Spatial_Relationship",
  "Dynamic_Attribute",
  "Motion_Order_Understanding",
  "Human_Interaction",
  "Complex_Landscape",
  "Motion_Rationality",
  "Instance_Preservation",
  "Mechanics",
  "Thermotics",
  "Material",
  "Multi-View_Consistency",
] as const;

export type VbenchDimension = (typeof VBENCH_DIMENSIONS)[number];

/** VBench-2.0 samples 20 videos per prompt for Diversity (it measures spread) and 3 elsewhere. */
export const DIVERSITY_SAMPLES_PER_PROMPT = 20;
export const DEFAULT_SAMPLES_PER_PROMPT = 3;

// Folder names get retyped by hand ("multi view consistency", "camera-motion"), so only letters count.
function dimensionKey(name: string): string {
  return name
    .normalize("NFC")
    .toLowerCase()
    .replace(/[\s_-]+/g, "");
}

const DIMENSION_BY_KEY: ReadonlyMap<string, VbenchDimension> = new Map(
  VBENCH_DIMENSIONS.map((dimension) => [dimensionKey(dimension), dimension]),
);

/** The dimension a folder (or list file stem) names, ignoring case and `-`/`_`/space differences; null if none. */
export function matchDimension(folderName: string): VbenchDimension | null {
  return DIMENSION_BY_KEY.get(dimensionKey(folderName.trim())) ?? null;
}

/** A known dimension in its canonical spelling, any other label trimmed but kept as the researcher wrote it. */
export function canonicalDimension(label: string): string {
  return matchDimension(label) ?? label.trim();
}
