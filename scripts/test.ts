// `npm test`: every test. Vitest (units and integration on a real PostgreSQL), then Playwright in
// Debian's Chromium against the production build. Ends with one line "tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!fs.existsSync(chromium)) {
  console.error(
    `Chromium is missing at ${chromium}; the UI tests drive it through Playwright (no browser download).\n` +
      `Install Debian's build:  sudo apt-get update && sudo apt-get install -y chromium\n` +
      `or point CHROMIUM_PATH at another Chromium binary.`,
  );
  process.exit(1);
}

const reports = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-test-"));
const vitestReport = path.join(reports, "vitest.json");
const playwrightReport = path.join(reports, "playwright.json");
const bin = (name: string) => path.resolve("node_modules/.bin", name);

const extra = process.argv.slice(2);
const vitest = spawnSync(
  bin("vitest"),
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`, ...extra],
  { stdio: "inherit" },
);
const playwright = spawnSync(bin("playwright"), ["test"], {
  stdio: "inherit",
  env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
});

function count(file: string, read: (json: any) => { passed: number; failed: number }) {
  try {
    return read(JSON.parse(fs.readFileSync(file, "utf8")));
  } catch {
    return null;
  }
}
const unit = count(vitestReport, (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests }));
const ui = count(playwrightReport, (r) => ({ passed: r.stats.expected, failed: r.stats.unexpected + r.stats.flaky }));
// CI keeps only the tail of the output, so the failures are named again at the very end.
const failures = [...vitestFailures(vitestReport), ...playwrightFailures(playwrightReport)];
fs.rmSync(reports, { recursive: true, force: true });

function firstLine(message: unknown) {
  return (
    String(message ?? "")
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .find((l) => l.trim()) ?? ""
  );
}
function vitestFailures(file: string): string[] {
  try {
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    const out: string[] = [];
    for (const suite of report.testResults ?? []) {
      const where = path.relative(process.cwd(), suite.name ?? "");
      const failed = (suite.assertionResults ?? []).filter((a: any) => a.status === "failed");
      for (const a of failed) out.push(`${where} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
      if (failed.length === 0 && suite.status === "failed") out.push(`${where}: ${firstLine(suite.message)}`);
    }
    return out;
  } catch {
    return [];
  }
}
function playwrightFailures(file: string): string[] {
  try {
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    const out: string[] = [];
    const walk = (suite: any) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status === "unexpected" || t.status === "flaky") {
            const error = t.results?.find((r: any) => r.error)?.error?.message;
            out.push(`${spec.file}:${spec.line} › ${spec.title} (${t.status}): ${firstLine(error)}`);
          }
        }
      }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of report.suites ?? []) walk(suite);
    return out;
  } catch {
    return [];
  }
}

const passed = (unit?.passed ?? 0) + (ui?.passed ?? 0);
const failed = (unit?.failed ?? 0) + (ui?.failed ?? 0) + (unit ? 0 : 1) + (ui ? 0 : 1);
if (failures.length > 0) console.log(`\nfailed:\n${failures.map((f) => `  ${f.slice(0, 400)}`).join("\n")}`);
console.log(`\nvitest: ${unit ? `${unit.passed} passed, ${unit.failed} failed` : "no report (it crashed)"}`);
console.log(`playwright: ${ui ? `${ui.passed} passed, ${ui.failed} failed` : "no report (it crashed)"}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(vitest.status === 0 && playwright.status === 0 && failed === 0 ? 0 : 1);
