import { describe, expect, it } from "vitest";
import { contrastRatio, textOnTint } from "./class-names";

describe("textOnTint", () => {
  const tints = { score: [220, 38, 38], difference: [217, 119, 6] } as const;
  const cards = { light: [255, 255, 255], dark: [15, 23, 43] } as const;

  it("computes WCAG contrast ratios", () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([98, 116, 142], [255, 255, 255])).toBeCloseTo(4.76, 1);
  });

  for (const [name, rgb] of Object.entries(tints)) {
    it(`keeps ${name} cells' text at 4.5:1 or more at every opacity, in both themes`, () => {
      for (let step = 0; step <= 20; step++) {
        const alpha = step / 20;
        const classes = textOnTint(rgb, alpha).split(" ");
        for (const theme of ["light", "dark"] as const) {
          const card = cards[theme];
          const blended = rgb.map((c, i) => c * alpha + card[i]! * (1 - alpha)) as unknown as [number, number, number];
          const chosen = classes.find((c) => (theme === "dark" ? c.startsWith("dark:") : !c.startsWith("dark:")))!;
          const text: [number, number, number] = chosen.endsWith("black") ? [0, 0, 0] : [255, 255, 255];
          expect(contrastRatio(text, blended), `${name} at ${alpha} in ${theme}: ${chosen}`).toBeGreaterThanOrEqual(
            4.5,
          );
        }
      }
    });
  }

  it("puts white on a strong red in the light theme and never the dark palette's remapped white", () => {
    expect(textOnTint([220, 38, 38], 1)).toContain("text-[#fff]");
    expect(textOnTint([220, 38, 38], 0.1)).toContain("text-black");
    expect(textOnTint([220, 38, 38], 1)).not.toMatch(/(^| )text-white/);
  });
});
