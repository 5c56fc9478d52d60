/**
 * Matching the videos a record file names to the project's videos by file name (the last path segment), as
 * the tasks' item set files do, through the one video matcher (./video-matcher.ts): exactly one project
 * video, or an error that says why.
 */
import { videoMatcher } from "./video-matcher";

export type VideoMatch = { ok: true; fileName: string } | { ok: false; message: string; unmatched: boolean };

export function videoFileNameMatcher(projectVideoFileNames: readonly string[]): (video: string) => VideoMatch {
  const matchVideo = videoMatcher(
    projectVideoFileNames.map((name) => ({ id: name, relativePath: name, fileName: videoBaseName(name) })),
    { by: ["file name"] },
  );
  return (video) => {
    const match = matchVideo(videoBaseName(video));
    if ("video" in match) return { ok: true, fileName: match.video.relativePath };
    if ("unmatched" in match)
      return {
        ok: false,
        message: `video ${JSON.stringify(video)} is not among the project's videos`,
        unmatched: true,
      };
    return {
      ok: false,
      message: `video ${JSON.stringify(video)} matches ${match.ambiguous.length} of the project's videos (${match.ambiguous.map((m) => JSON.stringify(m.relativePath)).join(", ")}); file names must identify one video`,
      unmatched: false,
    };
  };
}

/** A file name's last path segment, as a record file and the project may name the same video with different folders. */
export function videoBaseName(name: string): string {
  return name.split(/[\\/]/).at(-1) ?? name;
}
