/**
 * A run as one JSON document: its task, settings, prompt versions with their text hashes, endpoint (base URL,
 * never a key), the model ids it asked for, those its calls asked for and those the answers named (a dated snapshot
 * behind an alias, the checkpoint a server loaded), sampling parameters, input mode and frame
 * parameters, the videos and frame sets it judged, and FrameJury's version. `POST …/runs` takes it back
 * (`{manifest, endpointId?}`) to run the same again, on the same endpoint (its answers then come from the response
 * cache) or another.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { ConflictError, NotFoundError } from "../../errors";
import { inputModeOf, inputModeSchema } from "../input-modes/index";
import { keyedUnion } from "../../validation/keyed-union";
import type { TaskCatalogue } from "../../task-modules/task-catalogue";
import { createRunSchema } from "./run-input.validation";
import { MANIFEST_FORMAT_NAME } from "./run-manifest-format";
import { createRun, dryRun } from "./runs";
import { startSweep } from "./run-sweep";

export const MANIFEST_FORMAT = MANIFEST_FORMAT_NAME;

export async function runManifest(prisma: PrismaClient, access: ProjectAccess, runId: string) {
  // A run of another project is as unknown as one that does not exist.
  const run = await prisma.judgeRun.findFirst({ where: { id: runId, projectId: access.projectId } });
  if (!run) throw new NotFoundError("No such run.");
  const versionIds = Object.values((run.promptVersionIds ?? {}) as Record<string, string>);
  const [versions, templates, models, videos, itemSets, frameSets] = await Promise.all([
    prisma.promptVersion.findMany({
      where: { id: { in: versionIds } },
      select: { id: true, templateId: true, hash: true, text: true },
      orderBy: { templateId: "asc" },
    }),
    prisma.$queryRaw<{ templateId: string; templateHash: string }[]>`
      SELECT DISTINCT "templateId", "templateHash" FROM step_result
      WHERE "runId" = ${runId} AND "templateHash" IS NOT NULL ORDER BY "templateId", "templateHash"`,
    prisma.$queryRaw<{ model: string; reportedModel: string | null; cached: boolean; calls: bigint }[]>`
      SELECT model, "reportedModel", cached, count(*) AS calls FROM llm_call WHERE "runId" = ${runId}
      GROUP BY model, "reportedModel", cached ORDER BY model, "reportedModel" NULLS LAST, cached`,
    prisma.runVideo.findMany({
      where: { runId },
      select: { videoId: true, frameSetId: true },
      orderBy: { videoId: "asc" },
    }),
    prisma.$queryRaw<{ setId: string }[]>`
      SELECT DISTINCT i."setId" FROM run_item ri JOIN item i ON i.id = ri."itemId" WHERE ri."runId" = ${runId}`,
    prisma.$queryRaw<{ mode: string; parameters: unknown }[]>`
      SELECT DISTINCT fs.mode, fs.parameters FROM run_video rv JOIN frame_set fs ON fs.id = rv."frameSetId"
      WHERE rv."runId" = ${runId} LIMIT 20`,
  ]);
  const snapshot = (run.endpointSnapshot ?? {}) as Record<string, unknown>;
  return {
    format: MANIFEST_FORMAT,
    version: 1,
    framejury: frameJuryVersion(),
    run: { id: run.id, projectId: run.projectId, status: run.status, createdAt: run.createdAt },
    task: { pipeline: run.pipeline },
    settings: run.settings,
    promptVersions: versions.map((v) => ({
      templateId: v.templateId,
      id: v.id,
      hash: v.hash,
      textSha256: createHash("sha256").update(v.text).digest("hex"),
    })),
    /** Every template the run's steps rendered, with the hash each step recorded (shipped files and versions). */
    templates,
    endpoint: {
      id: run.endpointId,
      name: snapshot.name ?? null,
      baseUrl: snapshot.baseUrl ?? null,
      roles: snapshot.roles ?? null,
    },
    models: {
      requested: snapshot.model ?? null,
      called: [...new Set(models.map((m) => m.model))],
      /**
       * Each model asked for with the model its answers named and how many calls; `cached` calls were answered from
       * the response cache (the cache keeps no model name: `reported` null), and null elsewhere is an answer that named
       * none (or an error).
       */
      reported: models.map((m) => ({
        requested: m.model,
        reported: m.reportedModel,
        cached: m.cached,
        calls: Number(m.calls),
      })),
    },
    sampling: {
      temperature: snapshot.temperature ?? null,
      imageDetail: snapshot.imageDetail ?? null,
      selfConsistency: run.sampling ?? null,
    },
    input: { mode: inputModeOf(run.inputMode), frameSets },
    batch: run.batchMode,
    budgetUsd: run.budgetUsd,
    itemSetId: itemSets.length === 1 ? itemSets[0]!.setId : null,
    videos: videos.map((v) => ({ id: v.videoId, frameSetId: v.frameSetId })),
  };
}

/** What a re-run reads of a manifest; the rest of the document is kept for people and other tools. */
export const runManifestSchema = z.looseObject({
  format: z.literal(MANIFEST_FORMAT),
  version: z.literal(1),
  task: z.looseObject({ pipeline: z.string().min(1).max(200) }),
  settings: z.record(z.string(), z.unknown()),
  promptVersions: z
    .array(
      z.looseObject({
        templateId: z.string().min(1).max(200),
        id: z.string().min(1).max(64),
        hash: z.string().min(1).max(128),
      }),
    )
    .max(50),
  endpoint: z.looseObject({ id: z.string().min(1).max(64) }),
  input: z.looseObject({ mode: inputModeSchema }),
  batch: z.boolean().optional(),
  itemSetId: z.string().min(1).max(64).nullable().optional(),
  videos: z.array(z.looseObject({ id: z.string().min(1).max(64) })).max(100_000),
});
export type RunManifestInput = z.infer<typeof runManifestSchema>;

const manifestRequestSchema = z.strictObject({
  manifest: runManifestSchema,
  /** Run it on this endpoint of the project instead of the manifest's. */
  endpointId: z.string().min(1).max(64).optional(),
  dryRun: z.boolean().optional(),
  budgetUsd: z.number().positive().max(1_000_000).optional(),
});

/** `POST …/runs`: a run request, or a manifest to run again (with another endpoint, a dry run, a budget). */
export function runRequestSchema(catalogue: TaskCatalogue) {
  return catalogue.derived("judge.runRequest", () =>
    // A run request with a `manifest` that is not one is refused (the plain request takes no `manifest`), not run as
    // the plain request beside it.
    keyedUnion("manifest", manifestRequestSchema, createRunSchema(catalogue)),
  );
}

/** Starts (or estimates) the run a request asks for, a manifest's as its run request says. */
export async function startRunRequest(
  deps: Parameters<typeof createRun>[0],
  access: ProjectAccess<"runs.manage">,
  catalogue: TaskCatalogue,
  body: z.output<ReturnType<typeof runRequestSchema>>,
) {
  if (body.manifest === undefined) {
    if (body.sweep) return startSweep(deps, access, { ...body, sweep: body.sweep });
    return body.dryRun ? dryRun(deps, access, body) : createRun(deps, access, body);
  }
  // A manifest names records of the access's project only: another project's run names nothing readable here.
  const fromManifest = await runInputFromManifest(deps.prisma, access.projectId, body.manifest, body.endpointId);
  const input = createRunSchema(catalogue).parse({
    ...fromManifest,
    ...(body.dryRun ? { dryRun: true } : {}),
    ...(body.budgetUsd ? { budgetUsd: body.budgetUsd } : {}),
  });
  return input.dryRun ? dryRun(deps, access, input) : createRun(deps, access, input);
}

/**
 * The run request a manifest makes: its task, settings, prompt versions and videos, on its endpoint or the one
 * named. A prompt version that no longer exists is a 404 naming it, one whose text changed (another hash) a 409.
 */
export async function runInputFromManifest(
  prisma: PrismaClient,
  projectId: string,
  manifest: RunManifestInput,
  endpointId: string | undefined,
) {
  const wanted = manifest.promptVersions;
  const found = await prisma.promptVersion.findMany({
    where: { projectId, id: { in: wanted.map((v) => v.id) } },
    select: { id: true, templateId: true, hash: true },
  });
  const byId = new Map(found.map((v) => [v.id, v]));
  for (const version of wanted) {
    const row = byId.get(version.id);
    if (!row)
      throw new NotFoundError(
        `The manifest's prompt version ${version.id} (of ${version.templateId}) no longer exists in this project.`,
      );
    if (row.hash !== version.hash || row.templateId !== version.templateId)
      throw new ConflictError(
        `The manifest's prompt version ${version.id} is not the one it names (template or text hash differs).`,
      );
  }
  return {
    pipeline: manifest.task.pipeline,
    endpointId: endpointId ?? manifest.endpoint.id,
    videoIds: manifest.videos.map((v) => v.id),
    settings: manifest.settings,
    promptVersions: Object.fromEntries(wanted.map((v) => [v.templateId, v.id])),
    inputMode: manifest.input.mode,
    ...(manifest.batch ? { batch: true } : {}),
    ...(manifest.itemSetId ? { itemSetId: manifest.itemSetId } : {}),
  };
}

/** FrameJury's version (package.json) and the git commit of the checkout it runs from, when it has one. */
function frameJuryVersion(): { version: string; commit: string | null } {
  let version = "unknown";
  try {
    version = (JSON.parse(fs.readFileSync(path.resolve("package.json"), "utf8")) as { version: string }).version;
  } catch {
    // A deployment without its package.json says so.
  }
  return { version, commit: process.env.FRAMEJURY_GIT_COMMIT ?? gitCommit() };
}

function gitCommit(): string | null {
  try {
    const head = fs.readFileSync(path.resolve(".git/HEAD"), "utf8").trim();
    const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1];
    const commit = ref ? fs.readFileSync(path.resolve(".git", ref), "utf8").trim() : head;
    return /^[0-9a-f]{40}$/.test(commit) ? commit : null;
  } catch {
    return null;
  }
}
