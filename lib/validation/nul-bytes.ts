import { ValidationError } from "../errors";

/** PostgreSQL text cannot hold U+0000; a NUL that reached a query would fail it with a 500. */
export const NUL_BYTE_MESSAGE = "must not contain NUL bytes (U+0000)";

/**
 * How deep a request's JSON (a body, a multipart field holding JSON) may nest. Nothing the app reads
 * nests more than a few levels; the limit keeps any walk of the value shallow (5,000 levels, 10 kB,
 * overflowed the stack of the recursive walk this replaced).
 */
export const MAX_JSON_DEPTH = 64;

export function hasNulByte(text: string): boolean {
  return text.includes("\u0000");
}

type Path = readonly (string | number)[];

/**
 * Where in a parsed input (JSON body, form, query) a NUL byte hides, as a dotted path; null if none.
 * Iterative, in document order; a value nested deeper than MAX_JSON_DEPTH is refused with a 400
 * before anything below that depth is looked at.
 */
export function nulBytePath(value: unknown, path: Path = []): string | null {
  const join = (p: Path) => p.join(".") || "input";
  const stack: { value: unknown; path: Path; depth: number; key?: string }[] = [{ value, path, depth: 0 }];
  while (stack.length > 0) {
    const here = stack.pop()!;
    if (here.key !== undefined && hasNulByte(here.key))
      return [...here.path.slice(0, -1), JSON.stringify(here.key)].join(".");
    const inner = here.value;
    if (typeof inner === "string") {
      if (hasNulByte(inner)) return join(here.path);
      continue;
    }
    if (inner === null || typeof inner !== "object") continue;
    if (here.depth >= MAX_JSON_DEPTH)
      throw new ValidationError(`${join(here.path)}: the JSON is nested more than ${MAX_JSON_DEPTH} levels deep.`);
    const children = Array.isArray(inner)
      ? inner.map((item, i) => ({ value: item as unknown, path: [...here.path, i], depth: here.depth + 1 }))
      : Object.entries(inner).map(([key, item]) => ({
          value: item,
          path: [...here.path, key],
          depth: here.depth + 1,
          key,
        }));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return null;
}

/**
 * Refuses an input holding a NUL byte anywhere with a 400 naming the field, and one nested deeper than
 * MAX_JSON_DEPTH. Called where request bodies, forms and multipart fields are parsed, so every text
 * input is covered before any schema.
 */
export function rejectNulBytes(value: unknown, prefix?: string): void {
  const found = nulBytePath(value, prefix ? [prefix] : []);
  if (found) throw new ValidationError(`${found}: ${NUL_BYTE_MESSAGE}.`);
}

/** The 1-based line of an uploaded text file's first NUL byte; null if none. */
export function nulByteLine(text: string): number | null {
  const at = text.indexOf("\u0000");
  if (at < 0) return null;
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Refuses an uploaded text file (a prompt list, a label file) holding a NUL byte with a 400 naming its line. */
export function rejectNulBytesInFile(text: string, fileName: string): void {
  const line = nulByteLine(text);
  if (line !== null) throw new ValidationError(`${fileName} line ${line}: ${NUL_BYTE_MESSAGE}.`);
}

/** For zod string schemas of query strings (which are not walked): `.refine(noNulBytes, NUL_BYTE_MESSAGE)`. */
export const noNulBytes = (text: string) => !hasNulByte(text);
