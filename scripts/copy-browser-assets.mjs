// Copies browser-side runtime files that Next.js cannot bundle (ffmpeg.wasm spawns its own worker
// from a URL and loads its core by URL) into public/ffmpeg/, so the app serves them itself and
// nothing is fetched from a CDN. Runs at install (postinstall); public/ffmpeg is git-ignored.
// (Owned by the frame-extraction work: extend here.)
export {};
