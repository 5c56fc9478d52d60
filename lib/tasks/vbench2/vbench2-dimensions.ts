/**
 * VBench-2.0's 18 dimensions as its scripts group them (scripts/constant.py, read by scripts/cal_final_score.py):
 * which five categories the total averages, and which dimensions FrameJury judges with a VLM (the 12 whose
 * evaluators ask LLaVA-Video yes/no questions or for descriptions) and which it imports from VBench's own results.
 */
export const VBENCH2_CATEGORIES = {
  Creativity: ["Composition", "Diversity"],
  Commonsense: ["Instance_Preservation", "Motion_Rationality"],
  Controllability: [
    "Camera_Motion",
    "Complex_Landscape",
    "Complex_Plot",
    "Dynamic_Attribute",
    "Dynamic_Spatial_Relationship",
    "Human_Interaction",
    "Motion_Order_Understanding",
  ],
  "Human Fidelity": ["Human_Anatomy", "Human_Clothes", "Human_Identity"],
  Physics: ["Material", "Mechanics", "Multi-View_Consistency", "Thermotics"],
} as const satisfies Record<string, readonly string[]>;

export type Vbench2Category = keyof typeof VBENCH2_CATEGORIES;

/** The twelve dimensions whose evaluators ask a VLM (and four of them a text LLM): FrameJury runs them. */
export const JUDGED_DIMENSIONS = [
  "Complex_Landscape",
  "Complex_Plot",
  "Composition",
  "Dynamic_Attribute",
  "Dynamic_Spatial_Relationship",
  "Human_Clothes",
  "Human_Interaction",
  "Material",
  "Mechanics",
  "Motion_Order_Understanding",
  "Motion_Rationality",
  "Thermotics",
] as const;
export type JudgedDimension = (typeof JUDGED_DIMENSIONS)[number];

/** The six scored by other models (detectors, optical flow, face and pose models): imported from VBench's results. */
export const IMPORTED_DIMENSIONS = [
  "Camera_Motion",
  "Diversity",
  "Human_Anatomy",
  "Human_Identity",
  "Instance_Preservation",
  "Multi-View_Consistency",
] as const;

/** All 18, in the order of VBench-2.0's constant.py (alphabetical). */
export const ALL_DIMENSIONS: readonly string[] = [...JUDGED_DIMENSIONS, ...IMPORTED_DIMENSIONS].sort();

export function categoryOf(dimension: string): Vbench2Category | null {
  for (const [category, dimensions] of Object.entries(VBENCH2_CATEGORIES))
    if ((dimensions as readonly string[]).includes(dimension)) return category as Vbench2Category;
  return null;
}

/** The id a dimension's targets and metrics use: "Dynamic_Spatial_Relationship" → "dynamic_spatial_relationship". */
export function dimensionSlug(dimension: string): string {
  return dimension.toLowerCase().replace(/-/g, "_");
}

export function isJudgedDimension(value: string): value is JudgedDimension {
  return (JUDGED_DIMENSIONS as readonly string[]).includes(value);
}

/**
 * VBench-2.0's total (scripts/cal_final_score.py): each category's mean over its dimensions, a dimension with no
 * score counting 0, then the mean of the five categories.
 */
export function vbench2Total(scores: Readonly<Record<string, number | null | undefined>>): {
  categories: Record<Vbench2Category, number>;
  total: number;
} {
  const categories = {} as Record<Vbench2Category, number>;
  for (const [category, dimensions] of Object.entries(VBENCH2_CATEGORIES) as [Vbench2Category, readonly string[]][]) {
    categories[category] = dimensions.reduce((sum, dimension) => sum + (scores[dimension] ?? 0), 0) / dimensions.length;
  }
  const values = Object.values(categories);
  return { categories, total: values.reduce((a, b) => a + b, 0) / values.length };
}
