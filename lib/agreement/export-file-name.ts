/** A file-name-safe slug: letters, digits, dots and dashes; runs of anything else become one dash. */
function slug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9.]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * A download's file name that says what it holds: `framejury_<project>_<what>_<filter>_<date>.<ext>`,
 * the filter as its set fields in order (`model-Sora_overallMin-50`) or `all`, the date as YYYY-MM-DD (UTC).
 * Each part is slugged, and the filter part shortened, so the name stays portable.
 */
export function exportFileName(parts: {
  project: string;
  what: string;
  filter: Record<string, string | number | undefined>;
  date: Date;
  extension: string;
}): string {
  const filter = Object.entries(parts.filter)
    .filter(([, value]) => value !== undefined && value !== "")
    .map(([key, value]) => `${slug(key)}-${slug(String(value))}`)
    .join("_")
    .slice(0, 80)
    .replace(/[-_]+$/, "");
  const project = slug(parts.project).slice(0, 40) || "project";
  return `framejury_${project}_${slug(parts.what)}_${filter || "all"}_${parts.date.toISOString().slice(0, 10)}.${parts.extension}`;
}
