/**
 * Matching the videos a record file names to the project's videos by file name (the last path segment), as
 * the tasks' item set files do: exactly one project video, or an error that says why.
 */

export type VideoMatch = { ok: true; fileName: string } | { ok: false; message: string; unmatched: boolean };

export function videoFileNameMatcher(projectVideoFileNames: readonly string[]): (video: string) => VideoMatch {
  const byBaseName = new Map<string, string[]>();
  for (const fileName of projectVideoFileNames) {
    const base = videoBaseName(fileName);
    byBaseName.set(base, [...(byBaseName.get(base) ?? []), fileName]);
  }
  return (video) => {
    const matches = byBaseName.get(videoBaseName(video)) ?? [];
    if (matches.length === 1) return { ok: true, fileName: matches[0]! };
    if (matches.length === 0)
      return {
        ok: false,
        message: `video ${JSON.stringify(video)} is not among the project's videos`,
        unmatched: true,
      };
    return {
      ok: false,
      message: `video ${JSON.stringify(video)} matches ${matches.length} of the project's videos (${matches.map((m) => JSON.stringify(m)).join(", ")}); file names must identify one video`,
      unmatched: false,
    };
  };
}

/** A file name's last path segment, as a record file and the project may name the same video with different folders. */
export function videoBaseName(name: string): string {
  return name.split(/[\\/]/).at(-1) ?? name;
}
