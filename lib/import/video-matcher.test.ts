import { describe, expect, it } from "vitest";
import { videoMatcher, videoNameCandidates } from "./video-matcher";

const video = (id: string, relativePath: string) => ({
  id,
  relativePath,
  fileName: relativePath.split("/").pop()!,
});

const videos = [
  video("v1", "modelA/clip.mp4"),
  video("v2", "modelB/clip.mp4"),
  video("v3", "modelA/other.mp4"),
  video("v4", "modelA/long/deep.mp4"),
  // A video whose id is another video's path: the id comes first.
  video("modelB/clip.mp4", "ids/named-like-a-path.mp4"),
];

describe("videoMatcher's precedence: id, then path, then a file name one video has", () => {
  const match = videoMatcher(videos, { by: ["id", "path", "file name"] });

  it("takes an id before a path, and a path before a file name", () => {
    expect(match("v3")).toEqual({ video: videos[2], matchedBy: "id" });
    expect(match("modelB/clip.mp4")).toEqual({ video: videos[4], matchedBy: "id" });
    expect(match("modelA/clip.mp4")).toEqual({ video: videos[0], matchedBy: "path" });
    expect(match("other.mp4")).toEqual({ video: videos[2], matchedBy: "file name" });
  });

  it("finds a longer path by the longest project path it ends with, written with Windows separators or a drive", () => {
    expect(match("C:\\exports\\modelA\\long\\deep.mp4")).toEqual({ video: videos[3], matchedBy: "path" });
    expect(match("/data/run/modelA/clip.mp4")).toEqual({ video: videos[0], matchedBy: "path" });
  });

  it("says a file name several videos have is ambiguous, naming them, and an unknown name unmatched", () => {
    expect(match("elsewhere/clip.mp4")).toEqual({ ambiguous: [videos[0], videos[1]] });
    expect(match("missing.mp4")).toEqual({ unmatched: true });
    expect(match("__proto__")).toEqual({ unmatched: true });
  });

  it("tries only the kinds it is given", () => {
    const byFileName = videoMatcher(videos, { by: ["file name"] });
    expect(byFileName("v3")).toEqual({ unmatched: true });
    expect(byFileName("modelA/other.mp4")).toEqual({ video: videos[2], matchedBy: "file name" });
    expect(byFileName("modelA/clip.mp4")).toEqual({ ambiguous: [videos[0], videos[1]] });
    const byPath = videoMatcher(videos, { by: ["path"] });
    expect(byPath("other.mp4")).toEqual({ unmatched: true });
  });

  it("compares file names by the key given, and reads Label Studio's upload prefix when asked", () => {
    const stem = (name: string) => name.replace(/\.[a-z0-9]{2,4}$/i, "").toLowerCase();
    expect(videoMatcher(videos, { by: ["path", "file name"], fileNameKey: stem })("OTHER")).toEqual({
      video: videos[2],
      matchedBy: "file name",
    });
    expect(match("1a2b3c4d-other.mp4")).toEqual({ unmatched: true });
    const labelStudio = videoMatcher(videos, { by: ["file name"], labelStudioPrefix: true });
    expect(labelStudio("1a2b3c4d-other.mp4")).toEqual({ video: videos[2], matchedBy: "file name" });
    expect(labelStudio("1a2b3c4d-clip.mp4")).toEqual({ ambiguous: [videos[0], videos[1]] });
  });
});

describe("videoNameCandidates", () => {
  it("lists every path a name could end with and its file name", () => {
    expect(videoNameCandidates(["D:\\x\\modelA\\clip.mp4", "other.mp4"])).toEqual({
      paths: ["x/modelA/clip.mp4", "modelA/clip.mp4", "clip.mp4", "other.mp4"],
      fileNames: ["clip.mp4", "other.mp4"],
    });
  });
});
