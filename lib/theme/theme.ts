/**
 * The colour theme: "system" follows the browser's prefers-color-scheme; "light" and "dark" override it.
 * The choice lives in a cookie, so the server renders <html> with its class and the first paint is
 * right without an inline script (the pages' CSP allows none without a nonce).
 */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_COOKIE = "framejury-theme";

/** The cookie's value as a theme: anything else (absent, tampered) is "system". */
export function parseTheme(value: string | undefined | null): Theme {
  return (THEMES as readonly string[]).includes(value ?? "") ? (value as Theme) : "system";
}

/** The class of <html>: none for "system" (app/dark-palette.css then follows the media query). */
export function themeClass(theme: Theme): string | undefined {
  return theme === "system" ? undefined : theme;
}
