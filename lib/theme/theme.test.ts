import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTheme, themeClass } from "./theme";
// @ts-expect-error: a plain .mjs script without types
import { darkPaletteCss, DARK_PALETTE_FILE } from "../../scripts/dark-palette.mjs";

describe("theme", () => {
  it("reads the cookie as a theme, anything unknown as system", () => {
    expect(parseTheme("dark")).toBe("dark");
    expect(parseTheme("light")).toBe("light");
    expect(parseTheme("system")).toBe("system");
    expect(parseTheme(undefined)).toBe("system");
    expect(parseTheme("<script>")).toBe("system");
    expect(themeClass("dark")).toBe("dark");
    expect(themeClass("system")).toBeUndefined();
  });

  it("app/dark-palette.css is what scripts/dark-palette.mjs makes from this Tailwind, for the chosen and the system's dark theme", () => {
    const css = fs.readFileSync(DARK_PALETTE_FILE, "utf8");
    expect(css).toBe(darkPaletteCss());
    // Surfaces turn dark and text light: white cards become slate-900, slate-900 text becomes slate-100.
    expect(css).toMatch(/\.dark \{\n {2}color-scheme: dark;\n {2}--color-white: oklch\(20\.8% /);
    expect(css).toContain("@media (prefers-color-scheme: dark) {\n  :root:not(.light) {");
    expect(css.match(/--color-slate-900: oklch\(96\.8% /g)).toHaveLength(2);
  });
});
