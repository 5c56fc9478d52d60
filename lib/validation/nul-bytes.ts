import { ValidationError } from "../errors";

/** PostgreSQL text cannot hold U+0000; a NUL that reached a query would fail it with a 500. */
export const NUL_BYTE_MESSAGE = "must not contain NUL bytes (U+0000)";

export function hasNulByte(text: string): boolean {
  return text.includes("\u0000");
}

/** Where in a parsed input (JSON body, form, query) a NUL byte hides, as a dotted path; null if none. */
export function nulBytePath(value: unknown, path: readonly (string | number)[] = []): string | null {
  const here = () => path.join(".") || "input";
  if (typeof value === "string") return hasNulByte(value) ? here() : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulBytePath(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (hasNulByte(key)) return [...path, JSON.stringify(key)].join(".");
      const found = nulBytePath(inner, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Refuses an input holding a NUL byte anywhere with a 400 naming the field. Called where request
 * bodies, forms and multipart fields are parsed, so every text input is covered before any schema.
 */
export function rejectNulBytes(value: unknown, prefix?: string): void {
  const found = nulBytePath(value, prefix ? [prefix] : []);
  if (found) throw new ValidationError(`${found}: ${NUL_BYTE_MESSAGE}.`);
}

/** For zod string schemas of query strings (which are not walked): `.refine(noNulBytes, NUL_BYTE_MESSAGE)`. */
export const noNulBytes = (text: string) => !hasNulByte(text);
