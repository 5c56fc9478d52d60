import { expect, it } from "vitest";
import { exportFileName } from "./export-file-name";

const date = new Date("2026-11-23T01:30:00Z");

it("names the project, what is exported, the filter and the date", () => {
  expect(
    exportFileName({
      project: "Ramp study",
      what: "items",
      filter: { model: "Sora", overallMin: 50, prompt: undefined },
      date,
      extension: "csv",
    }),
  ).toBe("framejury_Ramp-study_items_model-Sora_overallMin-50_2026-11-23.csv");
  expect(exportFileName({ project: "Ramp study", what: "agreement", filter: {}, date, extension: "json" })).toBe(
    "framejury_Ramp-study_agreement_all_2026-11-23.json",
  );
});

it("keeps only portable characters and bounds the filter's length", () => {
  const name = exportFileName({
    project: 'Étude / "quoted"',
    what: "items",
    filter: { prompt: 'a ball, then "ramp"/..\\'.repeat(10) },
    date,
    extension: "jsonl",
  });
  expect(name).toMatch(/^framejury_Etude-quoted_items_prompt-[A-Za-z0-9.\-_]+_2026-11-23\.jsonl$/);
  expect(name.length).toBeLessThan(160);
});
