// Copies browser-side runtime files that Next.js cannot bundle into public/ffmpeg/, so the app serves
// them itself and nothing is fetched from a CDN. Runs at install (postinstall); public/ffmpeg is git-ignored.
//
// Only the Emscripten cores are needed: lib/browser-extraction's worker imports the core's factory
// directly (no @ffmpeg/ffmpeg wrapper, which would spawn a second, nested worker):
//   public/ffmpeg/core/ffmpeg-core.{js,wasm}                     single-thread core (@ffmpeg/core)
//   public/ffmpeg/core-mt/ffmpeg-core.{js,wasm,worker.js}        multi-thread core (@ffmpeg/core-mt),
//                                                                used only when crossOriginIsolated
// mediabunny is bundled into the worker by Next.js, so it is not copied.
// Idempotent: a file is rewritten only when its size or modification time differ.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const target = path.join(root, "public", "ffmpeg");

/** [package folder inside node_modules, files in its dist/esm, destination folder under public/ffmpeg] */
const copies = [
  ["@ffmpeg/core", ["ffmpeg-core.js", "ffmpeg-core.wasm"], "core"],
  ["@ffmpeg/core-mt", ["ffmpeg-core.js", "ffmpeg-core.wasm", "ffmpeg-core.worker.js"], "core-mt"],
];

let copied = 0;
let unchanged = 0;
const versions = [];
for (const [pkg, files, dest] of copies) {
  const pkgDir = path.join(root, "node_modules", pkg);
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")).version;
  versions.push(`${pkg}@${version}`);
  const destDir = path.join(target, dest);
  fs.mkdirSync(destDir, { recursive: true });
  for (const file of files) {
    const from = path.join(pkgDir, "dist", "esm", file);
    const to = path.join(destDir, file);
    const src = fs.statSync(from);
    const dst = fs.statSync(to, { throwIfNoEntry: false });
    if (dst && dst.size === src.size && Math.abs(dst.mtimeMs - src.mtimeMs) < 2) {
      unchanged++;
      continue;
    }
    fs.copyFileSync(from, to);
    fs.utimesSync(to, src.atime, src.mtime);
    copied++;
  }
}
fs.writeFileSync(path.join(target, "VERSIONS.txt"), versions.join("\n") + "\n");
console.log(`copy-browser-assets: ${versions.join(", ")} -> public/ffmpeg (${copied} copied, ${unchanged} unchanged)`);
