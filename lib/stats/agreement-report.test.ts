import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agreementReportFromCsv, parseAgreementArgs } from "./agreement-report";
import { mulberry32 } from "./bootstrap";
import { cohensKappa } from "./cohens-kappa";
import { kendallTauB, pearson, spearman } from "./correlation";
import { meanAbsoluteError } from "./error-metrics";
import { StatsInputError } from "./input-error";
import { krippendorffAlpha } from "./krippendorff-alpha";
import { KRIPPENDORFF_2011 } from "../../testkit/stats/published-examples";
import { buildRatingTable } from "./rating-table";

/** CSV text of an items × raters matrix, one line per rating (missing ratings as empty values). */
function csvOf(matrix: readonly (readonly (number | string | null)[])[]): string {
  const lines = ["item,rater,value"];
  matrix.forEach((row, i) => row.forEach((v, r) => lines.push(`u${i + 1},coder-${r + 1},${v ?? ""}`)));
  return `${lines.join("\n")}\n`;
}

function errorOf(run: () => unknown): StatsInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof StatsInputError) return error;
    throw error;
  }
  throw new Error("expected a StatsInputError");
}

describe("agreement report from CSV", () => {
  it("reports Krippendorff's 2011 example: 12 items, 4 raters, alpha at each level, Fleiss null (missing values)", () => {
    const csv = csvOf(KRIPPENDORFF_2011);
    const ordinal = agreementReportFromCsv(csv, "ordinal");
    expect(ordinal).toMatchObject({ level: "ordinal", n_items: 12, n_raters: 4, fleiss_kappa: null });
    expect(ordinal.krippendorff_alpha).toBeCloseTo(0.815, 3);
    expect(agreementReportFromCsv(csv, "nominal").krippendorff_alpha).toBeCloseTo(0.743, 3);
    expect(agreementReportFromCsv(csv, "interval").krippendorff_alpha).toBeCloseTo(0.849, 3);
    expect(agreementReportFromCsv(csv, "ratio").krippendorff_alpha).toBeCloseTo(0.797, 3);
    // More than two raters: no two-rater statistics.
    expect(ordinal).not.toHaveProperty("cohen_kappa");
    expect(ordinal).not.toHaveProperty("spearman");
  });

  it("adds the two-rater statistics over the items both rated", () => {
    // SciPy's Kendall example as two raters, plus an item only one of them rated (left out of the pairs).
    const x = [12, 2, 1, 12, 2];
    const y = [1, 4, 7, 1, 0];
    const rows = [
      "item,rater,value",
      ...x.map((v, i) => `i${i},a,${v}`),
      ...y.map((v, i) => `i${i},b,${v}`),
      "i9,a,5",
      "i9,b,",
    ];
    const report = agreementReportFromCsv(rows.join("\n"), "interval");
    expect(report.n_items).toBe(6);
    expect(report.n_raters).toBe(2);
    expect(report.kendall_tau_b).toBeCloseTo(-0.47140452079103173, 14);
    // No co-rated item has equal values (12/1, 2/4, 1/7, 12/1, 2/0).
    expect(report.percent_agreement).toBe(0);
    // |12−1| + |2−4| + |1−7| + |12−1| + |2−0| = 11 + 2 + 6 + 11 + 2 = 32 → MAE 32/5.
    expect(report.mae).toBeCloseTo(32 / 5, 14);
    expect(report.rmse).toBeCloseTo(Math.sqrt((121 + 4 + 36 + 121 + 4) / 5), 14);
    for (const key of ["cohen_kappa", "cohen_kappa_linear", "cohen_kappa_quadratic", "spearman", "pearson"] as const) {
      expect(typeof report[key]).toBe("number");
    }
    expect(report.fleiss_kappa).toBeNull();
  });

  it("matches the library on Wikipedia's Cohen example given as a CSV (κ = 0.4, Fleiss computed: nothing missing)", () => {
    const pairs = [
      ...Array<[number, number]>(20).fill([1, 1]),
      ...Array<[number, number]>(5).fill([1, 0]),
      ...Array<[number, number]>(10).fill([0, 1]),
      ...Array<[number, number]>(15).fill([0, 0]),
    ];
    const report = agreementReportFromCsv(csvOf(pairs), "nominal");
    expect(report.cohen_kappa).toBeCloseTo(0.4, 12);
    // With two categories 0/1 every weighting gives the same kappa.
    expect(report.cohen_kappa_linear).toBeCloseTo(0.4, 12);
    expect(report.cohen_kappa_quadratic).toBeCloseTo(0.4, 12);
    expect(report.percent_agreement).toBeCloseTo(0.7, 12);
    expect(typeof report.fleiss_kappa).toBe("number");
  });

  it("accepts nominal string labels: weighted kappas and the numeric statistics are null", () => {
    const csv =
      "rater,value,item\nann,sharp,c1\nbob,sharp,c1\nann,blurry,c2\nbob,sharp,c2\nann,blurry,c3\nbob,blurry,c3\n";
    const report = agreementReportFromCsv(csv, "nominal");
    expect(report).toMatchObject({
      n_items: 3,
      n_raters: 2,
      cohen_kappa_linear: null,
      cohen_kappa_quadratic: null,
      spearman: null,
      kendall_tau_b: null,
      pearson: null,
      mae: null,
      rmse: null,
    });
    expect(report.cohen_kappa).toBeCloseTo(0.4, 12);
    expect(report.percent_agreement).toBeCloseTo(2 / 3, 12);
  });

  it("reports nulls, not NaN, for a constant rating and for a header with no rows", () => {
    const constant = agreementReportFromCsv("item,rater,value\ni1,a,5\ni1,b,5\ni2,a,5\ni2,b,5\n", "interval");
    expect(constant).toMatchObject({
      percent_agreement: 1,
      krippendorff_alpha: null,
      fleiss_kappa: null,
      cohen_kappa: null,
      pearson: null,
      spearman: null,
      kendall_tau_b: null,
      mae: 0,
      rmse: 0,
    });
    const empty = agreementReportFromCsv("item,rater,value\n", "ordinal");
    expect(empty).toEqual({
      level: "ordinal",
      n_items: 0,
      n_raters: 0,
      percent_agreement: null,
      krippendorff_alpha: null,
      fleiss_kappa: null,
    });
    const oneRater = agreementReportFromCsv("item,rater,value\ni1,a,1\ni2,a,2\n", "ordinal");
    expect(oneRater).toMatchObject({
      n_raters: 1,
      percent_agreement: null,
      krippendorff_alpha: null,
      fleiss_kappa: null,
    });
    const allMissing = agreementReportFromCsv("item,rater,value\ni1,a,\ni1,b,\n", "ordinal");
    expect(allMissing).toMatchObject({
      n_items: 1,
      n_raters: 2,
      percent_agreement: null,
      krippendorff_alpha: null,
      cohen_kappa: null,
      mae: null,
    });
    expect(JSON.stringify(allMissing)).not.toMatch(/NaN|Infinity/);
  });

  it("agrees with the library functions on random two-rater data with missing values", () => {
    const random = mulberry32(99);
    const rows = ["value,item,rater"];
    const a: (number | null)[] = [];
    const b: (number | null)[] = [];
    for (let i = 0; i < 400; i++) {
      const truth = Math.floor(random() * 11);
      const x = random() < 0.05 ? null : truth;
      const y = random() < 0.05 ? null : Math.max(0, Math.min(10, truth + Math.floor(random() * 5) - 2));
      a.push(x);
      b.push(y);
      rows.push(`${x ?? ""},item-${i},first`, `${y ?? ""},item-${i},second`);
    }
    const report = agreementReportFromCsv(rows.join("\r\n"), "interval");
    const both = a.map((x, i) => (x !== null && b[i] !== null ? i : -1)).filter((i) => i >= 0);
    const xs = both.map((i) => a[i]!);
    const ys = both.map((i) => b[i]!);
    expect(report.n_items).toBe(400);
    expect(report.spearman).toBeCloseTo(spearman(xs, ys)!, 12);
    expect(report.kendall_tau_b).toBeCloseTo(kendallTauB(xs, ys)!, 12);
    expect(report.pearson).toBeCloseTo(pearson(xs, ys)!, 12);
    expect(report.mae).toBeCloseTo(meanAbsoluteError(xs, ys)!, 12);
    expect(report.cohen_kappa_quadratic).toBeCloseTo(cohensKappa(a, b, "quadratic")!, 12);
    expect(report.krippendorff_alpha).toBeCloseTo(
      krippendorffAlpha(
        buildRatingTable(
          a.flatMap((x, i) => [
            { item: `${i}`, rater: "first", value: x },
            { item: `${i}`, rater: "second", value: b[i]! },
          ]),
        ),
        "interval",
      )!,
      12,
    );
  });

  describe("errors name the line", () => {
    it.each([
      ["an empty file", "", 1, /the file is empty/],
      ["a header missing a column", "item,rater\ni1,a\n", 1, /missing value/],
      ["an extra header column", "item,rater,value,note\n", 1, /unexpected "note"/],
      ["a repeated header column", "item,item,value\n", 1, /missing rater/],
      ["too few fields", "item,rater,value\ni1,a,1\ni2,a\n", 3, /expected 3 fields \(item, rater, value\), found 2/],
      ["too many fields", "item,rater,value\ni1,a,1,2,3\n", 2, /found 5/],
      ["too many fields in a quoted line", 'item,rater,value\n"i1",a,1,2\n', 2, /found 4/],
      ["an empty item", "item,rater,value\n,a,1\n", 2, /the item is empty/],
      ["an empty rater", "item,rater,value\ni1, ,1\n", 2, /the rater is empty/],
      ["an unterminated quote", 'item,rater,value\ni1,a,1\n"i2,a,1\n', 3, /unterminated quoted field/],
      ["text after a closing quote", 'item,rater,value\n"i1"x,a,1\n', 2, /after a closing quote/],
      [
        "a label at the ordinal level",
        "item,rater,value\ni1,a,1\ni1,b,good\ni2,a,bad\n",
        3,
        /"good" is not a number; --level ordinal/,
      ],
      ["a negative value at the ratio level", "item,rater,value\ni1,a,1\ni1,b,-2\n", 3, /"-2" is negative/],
      [
        "a numeral too large for a number",
        "item,rater,value\ni1,a,1\ni1,b,2\ni2,a,3\ni2,b,1e999\n",
        5,
        /"1e999" is too large to be a number/,
      ],
      [
        "a duplicate item and rater",
        "item,rater,value\ni1,a,1\ni1,b,2\ni1,a,\n",
        4,
        /duplicate rating for item "i1" by rater "a" \(first given on line 2\)/,
      ],
      ["a line number after a quoted line break", 'item,rater,value\ni1,"x\ny",1\ni2,a\n', 4, /found 2/],
    ] as const)("%s", (name, csv, line, message) => {
      const error = errorOf(() => agreementReportFromCsv(csv, name.includes("ratio") ? "ratio" : "ordinal"));
      expect(error.line).toBe(line);
      expect(error.message).toMatch(message);
      expect(error.message.startsWith(`line ${line}: `)).toBe(true);
    });

    it("accepts labels at the nominal level that the ordinal level refuses", () => {
      const csv = "item,rater,value\ni1,a,1\ni1,b,good\n";
      expect(() => agreementReportFromCsv(csv, "ordinal")).toThrow(StatsInputError);
      // One item, "1" against "good": no observed agreement and no chance agreement, so κ = 0; no weights for labels.
      expect(agreementReportFromCsv(csv, "nominal")).toMatchObject({
        n_items: 1,
        cohen_kappa: 0,
        cohen_kappa_linear: null,
      });
    });
  });
});

describe("agreement CLI arguments", () => {
  it("defaults the level to ordinal and accepts both --flag value and --flag=value", () => {
    expect(parseAgreementArgs(["--input", "r.csv"])).toEqual({ kind: "run", input: "r.csv", level: "ordinal" });
    expect(parseAgreementArgs(["--level=ratio", "--input=r.csv"])).toEqual({
      kind: "run",
      input: "r.csv",
      level: "ratio",
    });
    expect(parseAgreementArgs(["--input", "r.csv", "--help"])).toEqual({ kind: "help" });
  });

  it.each([
    [[], /--input <file> is required/],
    [["--input"], /--input needs a value/],
    [["--input", "r.csv", "--level", "fuzzy"], /--level must be one of nominal, ordinal, interval, ratio/],
    [["--verbose"], /unknown argument "--verbose"/],
  ])("rejects %j", (argv, message) => {
    expect(() => parseAgreementArgs(argv)).toThrow(message);
  });
});

describe("scripts/agreement.ts as a process", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/agreement.ts", ...args], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
    });

  it("prints one JSON report on stdout and exits 0", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agreement-cli-"));
    const file = path.join(dir, "ratings.csv");
    fs.writeFileSync(file, csvOf(KRIPPENDORFF_2011));
    const result = run("--input", file, "--level", "interval");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ level: "interval", n_items: 12, n_raters: 4, fleiss_kappa: null });
    expect(report.krippendorff_alpha).toBeCloseTo(0.849, 3);
  });

  it("exits 2 with the file and line on stderr for a bad CSV, and nothing on stdout", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agreement-cli-"));
    const file = path.join(dir, "bad.csv");
    fs.writeFileSync(file, "item,rater,value\ni1,a,1\ni1,a,2\n");
    const result = run("--input", file);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`${file}: line 3: duplicate rating for item "i1" by rater "a"`);
  });

  it("names the CSV line of a numeral too large for a number, at the nominal level too", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agreement-cli-"));
    const file = path.join(dir, "overflow.csv");
    fs.writeFileSync(file, "item,rater,value\ni1,a,1\ni1,b,2\ni2,a,-1e999\ni2,b,3\n");
    for (const level of ["ordinal", "nominal"]) {
      const result = run("--input", file, "--level", level);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`${file}: line 4: the value "-1e999" is too large to be a number`);
      expect(result.stderr).not.toMatch(/pair \d+/);
    }
  });

  it("exits 2 for a missing file or bad arguments, and 0 with the usage for --help", () => {
    const missing = run("--input", path.join(os.tmpdir(), "no-such-agreement-file.csv"));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
    const bad = run("--level", "ordinal");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--input <file> is required/);
    const help = run("--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run agreement/);
  });
});
