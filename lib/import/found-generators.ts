import { parseVideoPath } from "./parse-video-path";

/** The generators an import's paths name, counted before anything uploads (the Import page, `npm run import`). */
export interface FoundGenerators {
  /** Each generator with its number of videos, by name. */
  generators: { model: string; videos: number }[];
  /** Videos whose path names no generator (and no model was given in the form or with --model). */
  withoutGenerator: number;
}

/**
 * Reads each video path as the import will (parseVideoPath, the form's model winning) and counts the videos of
 * each generator. Paths that are no video are left out, as the import skips them.
 */
export function foundGenerators(relativePaths: Iterable<string>, model?: string): FoundGenerators {
  // Folder names are the user's text: counted in a Map, never as an object's keys.
  const counts = new Map<string, number>();
  let withoutGenerator = 0;
  for (const relativePath of relativePaths) {
    const parsed = parseVideoPath(relativePath, { model: model || undefined });
    if (!parsed.ok) continue;
    if (parsed.value.model === null) withoutGenerator += 1;
    else counts.set(parsed.value.model, (counts.get(parsed.value.model) ?? 0) + 1);
  }
  const generators = [...counts]
    .map(([name, videos]) => ({ model: name, videos }))
    .sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  return { generators, withoutGenerator };
}

const videosWord = (count: number) => `${count} ${count === 1 ? "video" : "videos"}`;

/** "generators found: kling-1.6 (12 videos), wan2.1 (10 videos); no generator for 3 videos". */
export function foundGeneratorsLine(found: FoundGenerators): string {
  const without = found.withoutGenerator ? videosWord(found.withoutGenerator) : null;
  if (!found.generators.length) return `no generator found in the paths${without ? ` of the ${without}` : ""}`;
  const named = `generators found: ${found.generators.map((g) => `${g.model} (${videosWord(g.videos)})`).join(", ")}`;
  return without ? `${named}; no generator for ${without}` : named;
}
