import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import type { PipelineDefinition } from "../task-modules/pipeline-types";
import {
  listTemplateIds,
  loadTemplate,
  parseTemplate,
  TemplateError,
  templateHash,
  type PromptTemplate,
} from "./prompt-templates";
import { savePromptVersionSchema, type SavePromptVersionInput } from "./prompt-versions.validation";

/**
 * Prompt versions: a project's owners edit a pipeline's shipped templates (prompts/). Each saved edit is
 * a row of prompt_version with the SHA-256 of its text, never changed afterwards; a run names the
 * versions it renders (judge_run.promptVersionIds), every other template renders the shipped file. The
 * engine records and caches by the rendered template's hash, so an edited version misses the response
 * cache and the shipped one (same bytes, same hash) hits it again.
 */

/**
 * The shipped templates a pipeline renders: every template in the folders of its steps' templates (a
 * step may pick one of its folder's templates per item, as QA's multiple-choice and open questions do).
 */
export function pipelineTemplateIds(pipeline: PipelineDefinition, options: { promptsDir?: string } = {}): string[] {
  const shipped = listTemplateIds(options);
  const groups = new Set(pipeline.steps.filter((step) => !step.compute).map((step) => step.templateId.split("/")[0]!));
  return shipped.filter((id) => groups.has(id.split("/")[0]!));
}

/**
 * Checks an edited template before it is saved: it parses, names the template it edits, and takes
 * exactly the placeholders the shipped template takes (the pipeline fills those and no others; a
 * missing or an extra one would fail every step at render time). Its few-shot `examples:` line, if any, parses
 * (lib/prompt-versions/template-examples.ts); a malformed entry is a ValidationError naming the entry and field.
 */
export function validateTemplateEdit(shipped: PromptTemplate, text: string): PromptTemplate {
  let edited: PromptTemplate;
  try {
    edited = parseTemplate(text, shipped.id);
  } catch (error) {
    if (error instanceof TemplateError) throw new ValidationError(error.message);
    throw error;
  }
  const missing = shipped.inputs.filter((name) => !edited.inputs.includes(name));
  const extra = edited.inputs.filter((name) => !shipped.inputs.includes(name));
  if (missing.length || extra.length) {
    const problems = [
      missing.length ? `it lacks ${missing.map((n) => `{{${n}}}`).join(", ")}` : null,
      extra.length ? `the pipeline has no value for ${extra.map((n) => `{{${n}}}`).join(", ")}` : null,
    ].filter(Boolean);
    throw new ValidationError(
      `Prompt template ${shipped.id}: ${problems.join("; ")}. The pipeline fills exactly ${shipped.inputs.map((n) => `{{${n}}}`).join(", ") || "no placeholders"}.`,
    );
  }
  return edited;
}

function shippedTemplate(templateId: string): PromptTemplate {
  if (!listTemplateIds().includes(templateId)) throw new NotFoundError(`No shipped prompt template ${templateId}.`);
  return loadTemplate(templateId);
}

const versionSelect = {
  id: true,
  templateId: true,
  hash: true,
  note: true,
  createdAt: true,
  createdById: true,
} as const;

/** Owners save an edit of a shipped template; saving the same text again answers the version it already has. */
export async function savePromptVersion(
  prisma: PrismaClient,
  access: ProjectAccess<"prompts.manage">,
  raw: SavePromptVersionInput,
) {
  const { actor, projectId } = access;
  const input = savePromptVersionSchema.parse(raw);
  const shipped = shippedTemplate(input.templateId);
  validateTemplateEdit(shipped, input.text);
  const hash = templateHash(input.text);
  if (hash === shipped.hash)
    throw new ValidationError(`This is the shipped text of ${shipped.id}: runs use it by default, no version needed.`);
  const existing = await prisma.promptVersion.findUnique({
    where: { projectId_templateId_hash: { projectId, templateId: shipped.id, hash } },
    select: versionSelect,
  });
  if (existing) return { ...existing, created: false };
  const created = await prisma.promptVersion.upsert({
    // Two saves of the same text at once: the second finds the first's row.
    where: { projectId_templateId_hash: { projectId, templateId: shipped.id, hash } },
    create: { projectId, templateId: shipped.id, text: input.text, hash, note: input.note, createdById: actor.userId },
    update: {},
    select: versionSelect,
  });
  return { ...created, created: true };
}

/** A project's templates for a pipeline: each shipped template with its hash and the project's versions of it, newest first. */
export async function pipelinePromptVersions(
  prisma: PrismaClient,
  access: ProjectAccess,
  pipeline: PipelineDefinition,
) {
  const { projectId } = access;
  const ids = pipelineTemplateIds(pipeline);
  const versions = await prisma.promptVersion.findMany({
    where: { projectId, templateId: { in: ids } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { ...versionSelect, text: true },
  });
  // A version an alignment chose links back to that alignment's report.
  const chosen = await prisma.alignmentRun.findMany({
    where: { projectId, promptVersionId: { in: versions.map((v) => v.id) } },
    select: { id: true, promptVersionId: true },
  });
  const alignmentOf = new Map(chosen.map((a) => [a.promptVersionId!, a.id]));
  return ids.map((id) => {
    const shipped = loadTemplate(id);
    return {
      templateId: id,
      shipped: { hash: shipped.hash, text: shipped.raw, inputs: shipped.inputs },
      versions: versions
        .filter((v) => v.templateId === id)
        .map((v) => ({ ...v, alignmentId: alignmentOf.get(v.id) ?? null })),
    };
  });
}

/**
 * The prompt versions a new run renders, checked: each named template is one the pipeline renders and
 * each version is this project's edit of it. "shipped" (or leaving a template out) renders the file.
 */
export async function resolveRunPromptVersions(
  prisma: PrismaClient,
  projectId: string,
  pipeline: PipelineDefinition,
  chosen: Record<string, string> | undefined,
): Promise<Record<string, string>> {
  const named = Object.entries(chosen ?? {}).filter(([, version]) => version !== "shipped");
  if (named.length === 0) return {};
  const allowed = new Set(pipelineTemplateIds(pipeline));
  const foreign = named.filter(([templateId]) => !allowed.has(templateId)).map(([templateId]) => templateId);
  if (foreign.length) throw new ValidationError(`Pipeline ${pipeline.id} renders no template ${foreign.join(", ")}.`);
  const versions = await prisma.promptVersion.findMany({
    where: { projectId, id: { in: named.map(([, id]) => id) } },
    select: { id: true, templateId: true },
  });
  for (const [templateId, versionId] of named) {
    const version = versions.find((v) => v.id === versionId);
    if (!version) throw new NotFoundError(`No prompt version ${versionId} in this project.`);
    if (version.templateId !== templateId)
      throw new ValidationError(
        `Prompt version ${versionId} is a version of ${version.templateId}, not of ${templateId}.`,
      );
  }
  return Object.fromEntries(named);
}

/** The prompt versions a run rendered (template id, version id, hash, note); an empty list: every template was the shipped one. */
export async function runPromptVersions(prisma: PrismaClient, access: ProjectAccess, runId: string) {
  const run = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId: access.projectId },
    select: { promptVersionIds: true },
  });
  if (!run) throw new NotFoundError("No such run.");
  const ids = Object.values((run.promptVersionIds ?? {}) as Record<string, string>);
  if (ids.length === 0) return [];
  const rows = await prisma.promptVersion.findMany({
    where: { id: { in: ids } },
    select: { id: true, templateId: true, hash: true, note: true, createdAt: true },
  });
  return rows.sort((a, b) => a.templateId.localeCompare(b.templateId));
}
