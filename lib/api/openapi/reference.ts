import type { JsonSchema, OpenApiDocument } from "./document";

/** One parameter as the API reference page lists it. */
export interface ReferenceParameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  /** A one-line reading of its schema: `string ≤64`, `"json" | "csv"`, `integer 1–20 (default 5)`. */
  type: string;
  description: string | null;
}

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string | null;
  public: boolean;
  parameters: ReferenceParameter[];
  /** The request body's content type and JSON Schema, pretty-printed. */
  body: { contentType: string; required: boolean; schema: string } | null;
  responses: { status: string; description: string; contentTypes: string[] }[];
}

export interface ReferenceGroup {
  tag: string;
  operations: ReferenceOperation[];
}

type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: unknown[];
  parameters?: { name: string; in: "path" | "query"; required: boolean; schema: JsonSchema; description?: string }[];
  requestBody?: { required: boolean; content: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { description?: string; content?: Record<string, unknown>; $ref?: string }>;
};

/** The document as the /docs/api page shows it: operations grouped by tag, in path order. */
export function apiReference(document: OpenApiDocument): ReferenceGroup[] {
  const errors = document.components.responses as Record<string, { description: string }>;
  const groups = new Map<string, ReferenceOperation[]>(document.tags.map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const operation = raw as Operation;
      const body = operation.requestBody ? Object.entries(operation.requestBody.content)[0] : undefined;
      groups.get(operation.tags[0]!)!.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        summary: operation.summary,
        description: operation.description ?? null,
        public: operation.security.length === 0,
        parameters: (operation.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required,
          type: schemaSummary(p.schema),
          description: p.description ?? (p.schema.description as string | undefined) ?? null,
        })),
        body: body
          ? {
              contentType: body[0],
              required: operation.requestBody!.required,
              schema: JSON.stringify(body[1].schema ?? {}, null, 2),
            }
          : null,
        responses: Object.entries(operation.responses).map(([status, answer]) => ({
          status,
          description: answer.$ref
            ? (errors[answer.$ref.split("/").pop()!]?.description ?? "")
            : (answer.description ?? ""),
          contentTypes: Object.keys(answer.content ?? {}),
        })),
      });
    }
  }
  return [...groups]
    .filter(([, operations]) => operations.length > 0)
    .map(([tag, operations]) => ({ tag, operations }));
}

/** A short reading of a parameter's schema for the table; the full schema is in the JSON document. */
export function schemaSummary(schema: JsonSchema): string {
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(schema.enum.map((value) => JSON.stringify(value)).join(" | "));
  else if (Array.isArray(schema.anyOf)) parts.push((schema.anyOf as JsonSchema[]).map(schemaSummary).join(" | "));
  else if (schema.type === "array") parts.push(`${schemaSummary((schema.items as JsonSchema | undefined) ?? {})}[]`);
  else parts.push(typeof schema.type === "string" ? schema.type : "any");
  const min = schema.minimum ?? schema.minLength ?? schema.minItems;
  const max = schema.maximum ?? schema.maxLength ?? schema.maxItems;
  if (min !== undefined && max !== undefined) parts.push(`${min}–${max}`);
  else if (max !== undefined) parts.push(`≤${max}`);
  else if (min !== undefined) parts.push(`≥${min}`);
  if (typeof schema.pattern === "string") parts.push(`/${schema.pattern}/`);
  if (schema.default !== undefined) parts.push(`(default ${JSON.stringify(schema.default)})`);
  return parts.join(" ");
}

/** A piece of a description: plain text, or what a route's description wrote between backticks (shown as code). */
export interface TextSpan {
  text: string;
  code: boolean;
}

/**
 * Splits a route's description at its backticks, so the page renders `{id, name}` as inline code rather
 * than with literal backticks. An unpaired backtick stays as text.
 */
export function codeSpans(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  const pattern = /`([^`]+)`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) spans.push({ text: text.slice(last, match.index), code: false });
    spans.push({ text: match[1]!, code: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) spans.push({ text: text.slice(last), code: false });
  return spans;
}
