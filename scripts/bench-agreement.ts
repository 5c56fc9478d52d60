// Benchmark of the agreement CLI (scripts/agreement.ts) on 1,000,000 ratings.
//   npx tsx scripts/bench-agreement.ts
// Generates two CSVs in a temporary folder with a seeded PRNG (same bytes on every run):
//   - 500,000 items × 2 raters, no missing values;
//   - 250,000 items × 4 raters, 1% of values left empty (missing), so Fleiss' kappa is null there.
// Ordinal values 0–10: each item has a latent quality (normal, mean 5.5, sd 2); each rater adds a small bias
// and noise (sd 0.9), rounds and clamps, which gives the moderate-to-high agreement of real rating panels.
// Each file is run as a child process (`node --import tsx scripts/agreement.ts --input FILE`), so process
// start, TypeScript loading, reading and CSV parsing are all in the wall time. One warm-up run (it fills
// tsx's transform cache), then 3 timed runs; the median is compared with the 2 s target. Numbers only,
// no assertions.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { mulberry32 } from "../lib/stats/bootstrap";

const TARGET_MS = 2000;
const RUNS = 3;
const ROOT = path.resolve(import.meta.dirname, "..");

interface Dataset {
  name: string;
  items: number;
  raters: number;
  missingShare: number;
}

const DATASETS: Dataset[] = [
  { name: "500k-items-2-raters", items: 500_000, raters: 2, missingShare: 0 },
  { name: "250k-items-4-raters", items: 250_000, raters: 4, missingShare: 0.01 },
];

const RATER_BIAS = [0, 0.3, -0.2, 0.5];

function writeDataset(dir: string, dataset: Dataset): string {
  const random = mulberry32(20240601 + dataset.raters);
  // Box–Muller: a standard normal from two uniforms.
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const file = path.join(dir, `${dataset.name}.csv`);
  const fd = fs.openSync(file, "w");
  let chunk = ["item,rater,value"];
  for (let i = 0; i < dataset.items; i++) {
    const quality = 5.5 + 2 * normal();
    const item = `video-${String(i).padStart(6, "0")}`;
    for (let r = 0; r < dataset.raters; r++) {
      const score = Math.min(10, Math.max(0, Math.round(quality + RATER_BIAS[r]! + 0.9 * normal())));
      chunk.push(`${item},rater-${r + 1},${random() < dataset.missingShare ? "" : score}`);
    }
    if (chunk.length >= 50_000) {
      fs.writeSync(fd, `${chunk.join("\n")}\n`);
      chunk = [];
    }
  }
  fs.writeSync(fd, chunk.length > 0 ? `${chunk.join("\n")}\n` : "");
  fs.closeSync(fd);
  return file;
}

function runCli(file: string): { ms: number; stdout: string; stderr: string; status: number | null } {
  const start = performance.now();
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/agreement.ts", "--input", file], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  const ms = performance.now() - start;
  return { ms, stdout: result.stdout, stderr: result.stderr, status: result.status };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-agreement-"));
console.log(`Agreement CLI benchmark: ${os.cpus().length} CPUs, Node ${process.version}; files in ${dir}`);
try {
  for (const dataset of DATASETS) {
    const generateStart = performance.now();
    const file = writeDataset(dir, dataset);
    const sizeMb = fs.statSync(file).size / 1e6;
    console.log(
      `\n${dataset.name}: ${(dataset.items * dataset.raters).toLocaleString("en")} ratings, ${sizeMb.toFixed(1)} MB ` +
        `(generated in ${((performance.now() - generateStart) / 1000).toFixed(1)} s)`,
    );
    const warmUp = runCli(file);
    if (warmUp.status !== 0) {
      console.log(`  the CLI failed (exit ${warmUp.status}): ${warmUp.stderr}`);
      continue;
    }
    const times = Array.from({ length: RUNS }, () => runCli(file).ms);
    const typical = median(times);
    console.log(
      `  wall time per run: ${times.map((ms) => `${ms.toFixed(0)} ms`).join(", ")} (warm-up ${warmUp.ms.toFixed(0)} ms)`,
    );
    console.log(
      `  median ${typical.toFixed(0)} ms — target < ${TARGET_MS} ms: ${typical < TARGET_MS ? "met" : "NOT met"}`,
    );
    console.log(`  output: ${warmUp.stdout.trim().split("\n").join("\n  ")}`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
