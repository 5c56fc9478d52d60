/**
 * Prompt templates: the text files under `prompts/` that every judge step renders.
 *
 * File format (`prompts/<group>/<name>.md`, id = `<group>/<name>`):
 *
 *     ---
 *     id: hallucination/static-hallucination
 *     version: 1
 *     inputs: [original_prompt, relation]
 *     output: hallucination/static_hallucination
 *     system: first-paragraph   (optional: the body's first paragraph is sent in the `system` role)
 *     examples: [{…}]           (optional: few-shot examples, a JSON array; lib/prompt-versions/template-examples.ts)
 *     turns: [{"role": …, "content": …}]  (optional: messages sent before the body, a JSON array on one line:
 *                               a system prompt and user/assistant few-shot turns, byte for byte; see templateTurns)
 *     image-position: before    (optional: the frames go before the text in the user's message; default after)
 *     (any other `key: value` lines are kept in `meta`, e.g. images, source, notes)
 *     ---
 *     <body: everything after the closing `---` line, minus the file's final newline>
 *
 * Placeholders are `{{name}}` (lower-case letters, digits, `_`; no spaces inside). The syntax cannot
 * collide with JSON in a prompt, because valid JSON never contains `{{`: an object's first token is a
 * string key. For the same reason there is no escape syntax, and any other `{{` in a body is an error.
 * A literal `}}` (the end of nested JSON objects) is ordinary text.
 *
 * Seed prompts that came from Python code (Sora Detector) wrote literal braces doubled, `{{"objects": …}}`,
 * for `str.format`. The files store them as the single braces the model actually received, so rendering
 * never touches JSON examples.
 *
 * `inputs` must list exactly the body's placeholders; rendering takes exactly those values. A missing
 * value or a value for an unknown name throws, so a wiring mistake can never send a prompt with a hole.
 * An explicitly empty string is a value and is rendered as such. Rendering is one pass: a value that
 * itself contains `{{…}}` is inserted literally.
 *
 * The template hash is the sha256 of the exact file bytes (front matter included), so any edit, even to
 * the notes, yields a new hash for the judgments made with it.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseTemplateExamples, type TemplateExample } from "./template-examples";

/** A chat message a template sends before its body (the judge's ChatTurn, lib/judge/calls/llm-client.ts, has this shape). */
interface TemplateTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface PromptTemplate {
  id: string;
  version: number;
  /** The placeholders the body uses, as declared in the front matter. */
  inputs: string[];
  /** Every other front-matter field, verbatim. */
  meta: Record<string, string>;
  /** Few-shot examples the engine shows after the body, with their frames (the `examples` field); absent: none. */
  examples?: TemplateExample[];
  body: string;
  /** The whole file as read; its sha256 is the template hash. */
  raw: string;
  hash: string;
}

export class TemplateError extends Error {
  constructor(
    readonly templateId: string,
    message: string,
  ) {
    super(`Prompt template ${templateId}: ${message}`);
    this.name = "TemplateError";
  }
}

const PLACEHOLDER = /\{\{([a-z][a-z0-9_]*)\}\}/g;
const TEMPLATE_ID = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/;

/** Where templates live: `PROMPTS_DIR`, else `prompts/` under the working directory (the project root for the app, the worker and the tests). */
export function promptsDir(): string {
  // Templates are read at run time (and edited in place), never bundled: turbopackIgnore keeps `next build`
  // from tracing the whole project because of these dynamic paths.
  return path.resolve(/* turbopackIgnore: true */ process.env.PROMPTS_DIR ?? "prompts");
}

export function templateHash(template: PromptTemplate | string): string {
  return createHash("sha256")
    .update(typeof template === "string" ? template : template.raw, "utf8")
    .digest("hex");
}

/** Placeholder names in order of first use. */
export function listPlaceholders(template: PromptTemplate | string): string[] {
  const body = typeof template === "string" ? template : template.body;
  return [...new Set(Array.from(body.matchAll(PLACEHOLDER), (match) => match[1]!))];
}

/** Parses a template file's text; no file system involved. `id` names the template in errors and must match the front matter's id. */
export function parseTemplate(raw: string, id: string): PromptTemplate {
  // Parsing sees LF line ends so a CRLF checkout renders the same prompt; the hash still covers the bytes as they are.
  const text = raw.replace(/\r\n/g, "\n");
  if (!text.startsWith("---\n")) throw new TemplateError(id, "the file must start with a `---` front-matter line.");
  const end = text.indexOf("\n---\n", 3);
  const endAtEof = end < 0 && text.endsWith("\n---") ? text.length - 4 : -1;
  const closing = end >= 0 ? end : endAtEof;
  if (closing < 0) throw new TemplateError(id, "the front matter has no closing `---` line.");
  const header = text.slice(4, closing);
  const body = end >= 0 ? text.slice(end + 5).replace(/\n$/, "") : "";

  const fields = new Map<string, string>();
  for (const [lineIndex, line] of header.split("\n").entries()) {
    if (!line.trim()) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_-]*):\s?(.*)$/.exec(line);
    if (!match)
      throw new TemplateError(id, `front-matter line ${lineIndex + 2} is not \`key: value\`: ${JSON.stringify(line)}`);
    if (fields.has(match[1]!)) throw new TemplateError(id, `front-matter field "${match[1]}" is given twice.`);
    fields.set(match[1]!, match[2]!.trim());
  }

  const declaredId = fields.get("id");
  if (!declaredId) throw new TemplateError(id, "the front matter has no `id`.");
  if (declaredId !== id) throw new TemplateError(id, `the front matter says id "${declaredId}".`);
  if (!TEMPLATE_ID.test(declaredId))
    throw new TemplateError(id, "ids are lower-case path segments such as `group/name`.");

  const versionText = fields.get("version");
  if (!versionText || !/^[1-9][0-9]*$/.test(versionText))
    throw new TemplateError(id, "`version` must be a positive integer.");

  const inputsText = fields.get("inputs");
  const inputsMatch = inputsText === undefined ? null : /^\[(.*)\]$/.exec(inputsText);
  if (!inputsMatch)
    throw new TemplateError(id, "`inputs` must be a list such as `[original_prompt, relation]` (or `[]`).");
  const inputs = inputsMatch[1]!.trim() ? inputsMatch[1]!.split(",").map((name) => name.trim()) : [];
  for (const name of inputs) {
    if (!/^[a-z][a-z0-9_]*$/.test(name))
      throw new TemplateError(id, `input name "${name}" must be lower-case letters, digits and _.`);
  }
  if (new Set(inputs).size !== inputs.length) throw new TemplateError(id, "`inputs` lists a name twice.");

  const stray = body.replace(PLACEHOLDER, (placeholder) => " ".repeat(placeholder.length)).indexOf("{{");
  if (stray >= 0) {
    const line = body.slice(0, stray).split("\n").length;
    throw new TemplateError(
      id,
      `body line ${line} has a "{{" that is not a {{placeholder}} (names are lower-case, no spaces).`,
    );
  }
  const used = listPlaceholders(body);
  const undeclared = used.filter((name) => !inputs.includes(name));
  const unused = inputs.filter((name) => !used.includes(name));
  if (undeclared.length)
    throw new TemplateError(
      id,
      `the body uses ${undeclared.map((n) => `{{${n}}}`).join(", ")} but \`inputs\` does not list it.`,
    );
  if (unused.length) throw new TemplateError(id, `\`inputs\` lists ${unused.join(", ")} but the body never uses it.`);

  const system = fields.get("system");
  if (system !== undefined) {
    if (system !== "first-paragraph")
      throw new TemplateError(
        id,
        `\`system\` must be \`first-paragraph\` (the body's text before its first blank line is the system message), not "${system}".`,
      );
    const split = body.indexOf("\n\n");
    if (split <= 0 || !body.slice(split).trim())
      throw new TemplateError(
        id,
        "`system: first-paragraph` needs a first paragraph, a blank line and a prompt after it.",
      );
    if (listPlaceholders(body.slice(0, split)).length)
      throw new TemplateError(id, "the system message (the first paragraph) may not hold a {{placeholder}}.");
  }

  try {
    templateTurns(fields.get("turns") === undefined ? undefined : { turns: fields.get("turns")! });
  } catch (error) {
    throw new TemplateError(id, error instanceof Error ? error.message : String(error));
  }
  const imagePosition = fields.get("image-position");
  if (imagePosition !== undefined && imagePosition !== "before" && imagePosition !== "after")
    throw new TemplateError(id, `\`image-position\` must be \`before\` or \`after\`, not "${imagePosition}".`);

  let examples: TemplateExample[] | undefined;
  const examplesText = fields.get("examples");
  if (examplesText !== undefined) {
    try {
      examples = parseTemplateExamples(examplesText);
    } catch (error) {
      throw new TemplateError(id, error instanceof Error ? error.message : String(error));
    }
  }

  const meta: Record<string, string> = {};
  for (const [key, value] of fields)
    if (key !== "id" && key !== "version" && key !== "inputs" && key !== "examples") meta[key] = value;
  return {
    id: declaredId,
    version: Number(versionText),
    inputs,
    meta,
    ...(examples?.length ? { examples } : {}),
    body,
    raw,
    hash: templateHash(raw),
  };
}

/** Fills every placeholder; throws on a missing value or on a value the template has no placeholder for. */
export function renderTemplate(template: PromptTemplate, values: Readonly<Record<string, string>>): string {
  const missing = template.inputs.filter((name) => typeof values[name] !== "string");
  const unknown = Object.keys(values).filter((name) => !template.inputs.includes(name));
  if (missing.length || unknown.length) {
    const problems = [
      missing.length ? `no value for ${missing.map((n) => `{{${n}}}`).join(", ")}` : null,
      unknown.length ? `values given for unknown placeholder(s) ${unknown.join(", ")}` : null,
    ].filter(Boolean);
    throw new TemplateError(
      template.id,
      `cannot render: ${problems.join("; ")} (it takes ${template.inputs.length ? template.inputs.join(", ") : "no values"}).`,
    );
  }
  return template.body.replace(PLACEHOLDER, (_, name: string) => values[name]!);
}

function resolveTemplateFile(idOrPath: string, dir: string): { file: string; id: string | null } {
  if (idOrPath.endsWith(".md")) {
    const file = path.resolve(idOrPath);
    const relative = path.relative(dir, file);
    const inside = !relative.startsWith("..") && !path.isAbsolute(relative);
    // A file outside the prompts dir has no id by location; its front matter names it.
    return { file, id: inside ? relative.slice(0, -3).split(path.sep).join("/") : null };
  }
  if (!TEMPLATE_ID.test(idOrPath))
    throw new TemplateError(idOrPath, "not a template id (lower-case path segments such as `<task>/<step>`).");
  return { file: path.join(dir, `${idOrPath}.md`), id: idOrPath };
}

function declaredId(raw: string): string | null {
  const header = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(raw)?.[1] ?? "";
  return /^id:\s*(\S+)\s*$/m.exec(header)?.[1] ?? null;
}

/** Reads a template by id (`hallucination/static-kg`, resolved under `promptsDir`) or by a path ending in `.md`. */
export function loadTemplate(idOrPath: string, options: { promptsDir?: string } = {}): PromptTemplate {
  const dir = options.promptsDir ?? promptsDir();
  const { file, id } = resolveTemplateFile(idOrPath, dir);
  let raw: string;
  try {
    raw = fs.readFileSync(/* turbopackIgnore: true */ file, "utf8");
  } catch (error) {
    throw new TemplateError(
      id ?? idOrPath,
      `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return parseTemplate(raw, id ?? declaredId(raw) ?? idOrPath);
}

/** Every template id under the prompts dir, sorted. */
export function listTemplateIds(options: { promptsDir?: string } = {}): string[] {
  const dir = options.promptsDir ?? promptsDir();
  const ids: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(
      /* turbopackIgnore: true */ path.join(/* turbopackIgnore: true */ dir, relative),
      { withFileTypes: true },
    )) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && entry.name.endsWith(".md")) ids.push(child.slice(0, -3));
    }
  };
  walk("");
  return ids.sort();
}

export interface LoadedTemplate extends PromptTemplate {
  render(values: Readonly<Record<string, string>>): string;
}

/**
 * Templates by id, each read once: a process renders the bytes whose hash it records, even if the file
 * changes on disk meanwhile (a restart picks up the edit and its new hash).
 */
export function createTemplateStore(options: { promptsDir?: string } = {}): { get(id: string): LoadedTemplate } {
  const dir = options.promptsDir ?? promptsDir();
  const cache = new Map<string, LoadedTemplate>();
  return {
    get(id) {
      let loaded = cache.get(id);
      if (!loaded) {
        const template = loadTemplate(id, { promptsDir: dir });
        loaded = { ...template, render: (values) => renderTemplate(template, values) };
        cache.set(id, loaded);
      }
      return loaded;
    },
  };
}

/**
 * A rendered prompt as its chat messages: with `system: first-paragraph` (seed 004's tables separate a system
 * message from the prompt), the text before the first blank line goes in the `system` role and the rest in the
 * `user` role; otherwise the whole text is one user message.
 */
/**
 * The messages a template sends before its body (its `turns` field: a JSON array of `{"role": "system" | "user" |
 * "assistant", "content": "…"}` on one line). JSON keeps every byte of a prompt written in code (VBench-2.0's system
 * prompts end in a newline and carry trailing spaces, which `system: first-paragraph` would trim); none when absent.
 */
export function templateTurns(meta: Readonly<Record<string, string>> | undefined): TemplateTurn[] {
  const text = meta?.turns;
  if (text === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`\`turns\` is not JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  const turns = Array.isArray(parsed) ? parsed : null;
  const valid = turns?.every(
    (turn) =>
      turn &&
      typeof turn === "object" &&
      ["system", "user", "assistant"].includes((turn as TemplateTurn).role) &&
      typeof (turn as TemplateTurn).content === "string",
  );
  if (!turns || !valid || turns.length === 0)
    throw new Error(
      '`turns` must be a non-empty JSON array of {"role": "system" | "user" | "assistant", "content": "…"}.',
    );
  return turns as TemplateTurn[];
}

/** True when the template's frames go before its text (`image-position: before`). */
export function imagesFirst(meta: Readonly<Record<string, string>> | undefined): boolean {
  return meta?.["image-position"] === "before";
}

export function splitSystemMessage(
  meta: Readonly<Record<string, string>> | undefined,
  text: string,
): { system: string | null; user: string } {
  if (meta?.system !== "first-paragraph") return { system: null, user: text };
  const split = text.indexOf("\n\n");
  if (split <= 0) return { system: null, user: text };
  return { system: text.slice(0, split), user: text.slice(split + 2) };
}
