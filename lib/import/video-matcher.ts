/**
 * Which project video a row of an imported file names (a span file, a label sheet, VBench results, a harness's
 * answers, an item set): the one matcher every importer asks. Pure; the importer loads the videos and words its own
 * errors from the outcome.
 */

/** A project video as a row may name it. */
export interface MatchableVideo {
  id: string;
  fileName: string;
  relativePath: string;
}

/** How a row's video was found: its id, a path in the project, or a file name only one video has. */
export type VideoMatchKind = "id" | "path" | "file name";

/** A row's video, or why there is none: no video has that name, or several have the file name it gives. */
export type VideoMatch<V extends MatchableVideo> =
  { video: V; matchedBy: VideoMatchKind } | { unmatched: true } | { ambiguous: readonly V[] };

export interface VideoMatchRules {
  /**
   * What a row's name may be, tried always in this order whatever order is given: a video id, then a path in the
   * project (or a longer path ending in one: the longest part that is one wins), then a file name that only one
   * video has. A kind left out is never tried.
   */
  by: readonly VideoMatchKind[];
  /** How file names are compared (the harnesses name a video without its extension); as they are by default. */
  fileNameKey?: (fileName: string) => string;
  /**
   * A file name with Label Studio's upload prefix (8 hex digits and a dash: `1a2b3c4d-clip.mp4`) also names the
   * video with the name after it, when no video has the prefixed name.
   */
  labelStudioPrefix?: boolean;
}

/** A path as a file may write it (Windows separators, a drive letter, leading slashes), as the project's paths are. */
export function projectPathOf(name: string): string {
  return name
    .replaceAll("\\", "/")
    .replace(/^[A-Za-z]:/, "")
    .replace(/^\/+/, "");
}

const LABEL_STUDIO_PREFIX = /^[0-9a-f]{8}-(.+)$/;

/**
 * The matcher of `videos` under `rules`: a function from what a row calls a video to its match. Maps, so a name like
 * `__proto__` is a name like any other.
 */
export function videoMatcher<V extends MatchableVideo>(
  videos: readonly V[],
  rules: VideoMatchRules,
): (name: string) => VideoMatch<V> {
  const kinds = new Set(rules.by);
  const fileNameKey = rules.fileNameKey ?? ((fileName: string) => fileName);
  const byId = new Map(videos.map((v) => [v.id, v]));
  const byPath = new Map(videos.map((v) => [v.relativePath, v]));
  const byFileName = new Map<string, V[]>();
  for (const v of videos) {
    const key = fileNameKey(v.fileName);
    byFileName.set(key, [...(byFileName.get(key) ?? []), v]);
  }
  return (name) => {
    const found = kinds.has("id") ? byId.get(name) : undefined;
    if (found) return { video: found, matchedBy: "id" };
    const parts = projectPathOf(name).split("/");
    if (kinds.has("path"))
      for (let i = 0; i < parts.length; i++) {
        const match = byPath.get(parts.slice(i).join("/"));
        if (match) return { video: match, matchedBy: "path" };
      }
    if (!kinds.has("file name")) return { unmatched: true };
    const fileName = parts[parts.length - 1] ?? "";
    const named = byFileName.get(fileNameKey(fileName)) ?? [];
    if (named.length === 1) return { video: named[0]!, matchedBy: "file name" };
    const unprefixed = rules.labelStudioPrefix ? LABEL_STUDIO_PREFIX.exec(fileName)?.[1] : undefined;
    const prefixNamed = unprefixed ? (byFileName.get(fileNameKey(unprefixed)) ?? []) : [];
    if (named.length === 0 && prefixNamed.length === 1) return { video: prefixNamed[0]!, matchedBy: "file name" };
    if (named.length > 1 || prefixNamed.length > 1)
      return { ambiguous: named.length >= prefixNamed.length ? named : prefixNamed };
    return { unmatched: true };
  };
}

/**
 * The project paths and file names that `names` could name a video by (each name's path and the shorter paths it
 * ends with, and its file name): an importer loads only the videos that have one, and its matcher (file names
 * compared as they are) finds among them what it would among all the project's videos.
 */
export function videoNameCandidates(names: Iterable<string>): { paths: string[]; fileNames: string[] } {
  const paths = new Set<string>();
  const fileNames = new Set<string>();
  for (const name of names) {
    const parts = projectPathOf(name).split("/");
    for (let i = 0; i < parts.length; i++) paths.add(parts.slice(i).join("/"));
    fileNames.add(parts[parts.length - 1] ?? "");
  }
  return { paths: [...paths], fileNames: [...fileNames] };
}
