/** The `format` a run manifest names itself by (lib/judge/runs/run-manifest.ts); plain TypeScript for the browser. */
export const MANIFEST_FORMAT_NAME = "framejury-run-manifest";
