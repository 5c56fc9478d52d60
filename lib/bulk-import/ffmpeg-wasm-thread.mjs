// One ffmpeg.wasm core in a Node worker thread, driven by ffmpeg-tools.ts (wasmTools): the core runs
// synchronously, so each thread gives the headless import one more core's worth of decoding, keeps the
// main thread free for progress and uploads, and a cancel can stop a run part-way by ending the thread.
// Plain JavaScript (not TypeScript): Node loads it as it is, under tsx, vitest or the framejury bin alike.
//
// The core is an Emscripten build for browsers and web workers only (ENVIRONMENT_IS_WORKER is hard-wired):
// it reads `self.location.href` at load and would fetch its .wasm by URL. Evaluating its UMD script with our
// own `self` and handing it the .wasm bytes (`wasmBinary`) is all it needs. Its WORKERFS reads through
// FileReaderSync, which Node lacks, so a video is copied into the core's in-memory file system (MEMFS).
import fs from "node:fs";
import { createRequire } from "node:module";
import vm from "node:vm";
import { parentPort } from "node:worker_threads";

let corePromise = null;

async function loadCore() {
  const scriptPath = createRequire(import.meta.url).resolve("@ffmpeg/core");
  const [source, wasmBinary] = await Promise.all([
    fs.promises.readFile(scriptPath, "utf8"),
    fs.promises.readFile(scriptPath.replace(/\.js$/, ".wasm")),
  ]);
  // The UMD script assigns module.exports; `self` stands in for the worker global it expects.
  const evaluate = vm.runInThisContext(`(function (self, module, exports) {${source}\n})`, { filename: scriptPath });
  const loaded = { exports: {} };
  evaluate({ location: { href: `file://${scriptPath}` } }, loaded, loaded.exports);
  return loaded.exports({ wasmBinary });
}

function removeTree(FS, dir) {
  let names = [];
  try {
    names = FS.readdir(dir).filter((name) => name !== "." && name !== "..");
  } catch {
    return;
  }
  for (const name of names) {
    const child = `${dir}/${name}`;
    if (FS.isDir(FS.stat(child).mode)) removeTree(FS, child);
    else FS.unlink(child);
  }
  FS.rmdir(dir);
}

const operations = {
  async stage(core, { dir, input, filePath }) {
    const bytes = await fs.promises.readFile(filePath);
    core.FS.mkdir(dir);
    core.FS.mkdir(`${dir}/out`);
    core.FS.writeFile(input, bytes);
    return { result: null };
  },
  async run(core, { tool, args }) {
    const stdout = [];
    const stderr = [];
    let trapped = false;
    core.setLogger(({ type, message }) => (type === "stdout" ? stdout : stderr).push(message));
    core.setTimeout(-1);
    try {
      if (tool === "ffmpeg") core.exec(...args);
      else core.ffprobe(...args);
    } catch (error) {
      // A wasm trap (not ffmpeg's normal exit) may leave the core unusable: the thread is ended after this call.
      stderr.push(error instanceof Error ? error.message : String(error));
      trapped = true;
    }
    const code = core.ret;
    core.reset();
    core.setLogger(() => {});
    return {
      result: {
        code,
        stdout: stdout.join("\n"),
        stderr: stderr.filter((line) => line && line !== "Aborted()"),
        trapped,
      },
    };
  },
  async read(core, { path }) {
    let data;
    try {
      data = core.FS.readFile(path);
    } catch {
      return { result: null };
    }
    return { result: data, transfer: [data.buffer] };
  },
  async unstage(core, { dir }) {
    removeTree(core.FS, dir);
    return { result: null };
  },
};

parentPort.on("message", async ({ id, op, ...payload }) => {
  try {
    corePromise ??= loadCore();
    const core = await corePromise;
    const { result, transfer } = await operations[op](core, payload);
    parentPort.postMessage({ id, ok: true, result }, transfer ?? []);
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
