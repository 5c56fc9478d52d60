/** A rubric task's version as a file to share (YAML, lib/rubrics/rubric-file.ts), with a file name safe in any header. */
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";
import type { PrismaClient } from "../generated/prisma/client";
import type { RubricDefinition } from "./rubric-definition";
import { rubricFileText } from "./rubric-file";
import { requireRubricTask } from "./rubric-tasks";

export interface RubricTaskFile {
  /** ASCII letters, digits, `.`, `_` and `-` only: never a quote, a path or a line break in Content-Disposition. */
  fileName: string;
  /** The task's name as written (any language), RFC 5987-encoded, for `filename*`. */
  encodedFileName: string;
  version: number;
  text: string;
}

/** One version of a rubric task (the latest when `version` is absent) as a YAML file; any member may export it. */
export async function rubricTaskFile(
  prisma: PrismaClient,
  access: ProjectAccess,
  rubricTaskId: string,
  version?: number,
): Promise<RubricTaskFile> {
  const task = await requireRubricTask(prisma, access, rubricTaskId);
  const row = await prisma.rubricVersion.findFirst({
    where: { rubricTaskId, ...(version === undefined ? {} : { number: version }) },
    orderBy: { number: "desc" },
    select: { number: true, definition: true },
  });
  if (!row)
    throw new NotFoundError(
      version === undefined ? "The rubric task has no version." : `The rubric task has no version ${version}.`,
    );
  const base = safeFileBase(task.name);
  const suffix = `-v${row.number}.yaml`;
  return {
    fileName: `${base}${suffix}`,
    encodedFileName: `${rfc5987(task.name)}${suffix}`,
    version: row.number,
    text: rubricFileText(row.definition as unknown as RubricDefinition),
  };
}

/** The name as a file name of ASCII letters, digits, `.`, `_` and `-` ("rubric" when nothing is left). */
export function safeFileBase(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .slice(0, 80)
    .replace(/^[-.]+|[-.]+$/g, "");
  return base || "rubric";
}

/** RFC 5987 `ext-value` characters: every byte outside attr-char percent-encoded. */
function rfc5987(text: string): string {
  return encodeURIComponent(text).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
