import path from "node:path";

/** Where FrameJury keeps local state: the embedded database, storage, the generated secret. */
export function dataDir(env: Record<string, string | undefined> = process.env): string {
  // Read at run time from the working directory: not a build input (turbopackIgnore keeps `next build`
  // from tracing the whole project into the server output).
  return path.resolve(/* turbopackIgnore: true */ env.DATA_DIR ?? ".data");
}
