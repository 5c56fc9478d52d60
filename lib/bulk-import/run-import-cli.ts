// `npm run import` / `framejury import` and `npm run extract-worker` / `framejury extract-worker`: argument
// parsing and the choice of target. Progress and messages go to stderr; the summary to stdout.
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import type { Actor } from "../auth/actor";
import { projectAccess } from "../authz/permissions";
import { createPrismaClient } from "../db/prisma";
import { resolveDatabase } from "../db/resolve-database";
import { normaliseFrameSetParameters } from "../frames/frame-set-parameters";
import { getStorage } from "../storage/storage";
import { runExtractWorker } from "./extract-worker";
import { DEFAULT_FRAME_SET_PARAMETERS, importFolders } from "./import-folder";
import { localTarget, serverTarget, type ImportTarget } from "./import-target";
import {
  chooseFfmpegTools,
  FFMPEG_CHOICES,
  ffmpegChoiceFromEnvironment,
  NativeFfmpegMissingError,
  type FfmpegTools,
} from "./ffmpeg-tools";
import { formatSummary, progressReporter } from "./progress";
import { fileUploadJournal } from "./upload-journal";

export interface BulkCliIo {
  stdout(line: string): void;
  /** Progress and messages; a terminal (isTTY) gets a progress bar redrawn in place. */
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  /** Aborted on Ctrl-C: the import stops taking files; partial uploads stay resumable. */
  signal?: AbortSignal;
}

export const IMPORT_USAGE = `usage: npm run import -- --project ID [options] <folder or file>…
       framejury import --project ID [options] <folder or file>…

Imports folder trees as the Import page does (VBench layout, prompt lists, metadata), extracting frames
with native ffmpeg, or the built-in ffmpeg.wasm when none is on PATH. Runs again skip what is done and
resume what was interrupted.

  --project ID        the project to import into (required)
  --model M           the generator model (else the folder above the dimension folder names it, as in
                      VBench-2.0's samples/<model>/<Dimension>/…; the generators found are listed first)
  --server URL        import into the FrameJury server at URL, with the API key in FRAMEJURY_API_KEY;
                      without it, into the local database (DATABASE_URL, or the embedded server)
  --as EMAIL          local database only: the user who imports (default: the project's first owner)
  --jobs N            videos worked on at once (default 2)
  --mode M            key frames: density-peaks (default), scene-change or uniform
  --sample-fps F      frames sampled per second before key-frame selection (default 4)
  --key-frames N      key frames per video (default: from the duration)
  --count N           uniform mode: frames per video (default 8)
  --max-side PX       longest side of the stored frames (default 768)
  --state FILE        where open uploads are remembered between runs
                      (default: ~/.cache/framejury/uploads-<server and project>.json)
  --ffmpeg WHICH       auto (default: native ffmpeg when on PATH, else ffmpeg.wasm), native or wasm;
                      default from FRAMEJURY_FFMPEG
  --json              print the summary as JSON (every file's outcome) instead of text`;

export const EXTRACT_WORKER_USAGE = `usage: npm run extract-worker -- [--project ID] [--once] [--jobs N] [--interval S]
       framejury extract-worker [options]

Extracts (with native ffmpeg, or the built-in ffmpeg.wasm when none is on PATH) the frames of every video waiting for them (registered through the API, or
left without frames by an interrupted import), on the local database (DATABASE_URL or the embedded server).
Loops until stopped (Ctrl-C); --once stops when none is left.

  --project ID        only this project's videos
  --once              extract what is waiting now, then exit
  --jobs N            videos extracted at once (default 1)
  --interval S        seconds between looks for new videos when none waits (default 10)
  --ffmpeg WHICH       auto (default), native or wasm; default from FRAMEJURY_FFMPEG`;

class UsageError extends Error {}

/** The ffmpeg to extract with (--ffmpeg, else FRAMEJURY_FFMPEG, else auto), said on stderr. */
function frameTools(flag: string | undefined, io: BulkCliIo): FfmpegTools {
  if (flag !== undefined && !(FFMPEG_CHOICES as readonly string[]).includes(flag))
    throw new UsageError(`--ffmpeg must be one of ${FFMPEG_CHOICES.join(", ")} (got "${flag}")`);
  let choice: (typeof FFMPEG_CHOICES)[number];
  try {
    choice = (flag as (typeof FFMPEG_CHOICES)[number] | undefined) ?? ffmpegChoiceFromEnvironment();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const tools = chooseFfmpegTools(choice);
  io.stderr.write(
    `extracting frames with ${tools.description}${choice === "auto" && tools.decoder === "ffmpeg.wasm" ? " — no native ffmpeg on PATH" : ""}\n`,
  );
  return tools;
}

const positiveInt = (flag: string) => z.coerce.number().int().min(1, `${flag} must be a whole number of at least 1`);

function frameParameters(values: Record<string, string | boolean | undefined>): unknown {
  const mode = (values.mode as string | undefined) ?? DEFAULT_FRAME_SET_PARAMETERS.mode;
  const number = (flag: string) => (values[flag] === undefined ? undefined : Number(values[flag]));
  const keyFrames =
    values["key-frames"] === undefined
      ? undefined
      : values["key-frames"] === "auto"
        ? "auto"
        : Number(values["key-frames"]);
  const input =
    mode === "uniform"
      ? { mode, count: number("count"), maxSide: number("max-side") }
      : {
          mode,
          sampleFps: number("sample-fps"),
          ...(mode === "density-peaks" ? { keyFrames } : {}),
          maxSide: number("max-side"),
        };
  return normaliseFrameSetParameters(
    Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)),
  );
}

function defaultJournalPath(targetDescription: string, projectId: string): string {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  const key = createHash("sha256").update(`${targetDescription}\n${projectId}`).digest("hex").slice(0, 16);
  return path.join(cache, "framejury", `uploads-${key}.json`);
}

async function localActor(
  prisma: ReturnType<typeof createPrismaClient>,
  projectId: string,
  email: string | undefined,
): Promise<Actor> {
  if (email) {
    const user = await prisma.user.findUnique({ where: { email: email.trim().toLowerCase() } });
    if (!user) throw new UsageError(`no user with email ${email}`);
    return { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin };
  }
  const owner = await prisma.projectMember.findFirst({
    where: { projectId, role: "owner" },
    orderBy: { createdAt: "asc" },
    include: { user: true },
  });
  if (!owner) throw new UsageError(`project ${projectId} does not exist or has no owner; pass --as EMAIL`);
  return { userId: owner.user.id, email: owner.user.email, name: owner.user.name, isAdmin: owner.user.isAdmin };
}

/** Returns the exit code: 0 all imported (or skipped), 1 some failed or not finished, 2 usage error. */
export async function runImportCli(argv: string[], io: BulkCliIo): Promise<number> {
  let database: Awaited<ReturnType<typeof resolveDatabase>> | null = null;
  let prisma: ReturnType<typeof createPrismaClient> | null = null;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        project: { type: "string" },
        model: { type: "string" },
        server: { type: "string" },
        as: { type: "string" },
        jobs: { type: "string" },
        mode: { type: "string" },
        "sample-fps": { type: "string" },
        "key-frames": { type: "string" },
        count: { type: "string" },
        "max-side": { type: "string" },
        state: { type: "string" },
        ffmpeg: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean" },
      },
    });
    if (values.help) {
      io.stderr.write(`${IMPORT_USAGE}\n`);
      return 0;
    }
    if (!values.project) throw new UsageError("--project is required");
    if (positionals.length === 0) throw new UsageError("name at least one folder or file to import");
    const parameters = frameParameters(values);
    const concurrency = values.jobs === undefined ? undefined : positiveInt("--jobs").parse(values.jobs);
    const tools = frameTools(values.ffmpeg, io);

    let target: ImportTarget;
    if (values.server) {
      const apiKey = process.env.FRAMEJURY_API_KEY;
      if (!apiKey)
        throw new UsageError(
          "--server needs an API key in FRAMEJURY_API_KEY (create one on your account page, or: npm run cli -- create-api-key --email E)",
        );
      if (values.as) throw new UsageError("--as is for the local database; with --server the API key says who imports");
      target = serverTarget(z.url({ protocol: /^https?$/ }).parse(values.server), apiKey, values.project);
    } else {
      database = await resolveDatabase((line) => io.stderr.write(`${line}\n`));
      prisma = createPrismaClient(database.url);
      const actor = await localActor(prisma, values.project, values.as);
      target = localTarget(
        { prisma, storage: getStorage() },
        await projectAccess(prisma, actor, values.project, "videos.import"),
      );
    }
    const journalPath = values.state ?? defaultJournalPath(target.description, values.project);
    io.stderr.write(`importing into project ${values.project} on ${target.description}\n`);
    const summary = await importFolders({
      roots: positionals,
      target,
      model: values.model,
      parameters,
      concurrency,
      frameTools: tools,
      journal: fileUploadJournal(journalPath),
      signal: io.signal,
      onEvent: progressReporter(io.stderr),
    });
    io.stdout(values.json ? JSON.stringify(summary) : formatSummary(summary));
    return summary.counts.failed + summary.counts.interrupted > 0 ||
      summary.files.some((file) => file.status === "failed")
      ? 1
      : 0;
  } catch (error) {
    return reportError(error, io, IMPORT_USAGE);
  } finally {
    await prisma?.$disconnect();
    await database?.stop();
  }
}

function reportError(error: unknown, io: BulkCliIo, usage: string): number {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    io.stderr.write(`error: ${(error as Error).message}\n\n${usage}\n`);
    return 2;
  }
  if (error instanceof z.ZodError) {
    io.stderr.write(
      `error: ${error.issues.map((issue) => `${issue.path.join(".") || "value"}: ${issue.message}`).join("; ")}\n`,
    );
    return 2;
  }
  if (error instanceof NativeFfmpegMissingError) {
    io.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}

/** Returns the exit code: 0 stopped cleanly (or --once finished with no failure), 1 failures, 2 usage error. */
export async function runExtractWorkerCli(argv: string[], io: BulkCliIo): Promise<number> {
  let database: Awaited<ReturnType<typeof resolveDatabase>> | null = null;
  let prisma: ReturnType<typeof createPrismaClient> | null = null;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        project: { type: "string" },
        once: { type: "boolean" },
        jobs: { type: "string" },
        interval: { type: "string" },
        mode: { type: "string" },
        "sample-fps": { type: "string" },
        "key-frames": { type: "string" },
        count: { type: "string" },
        "max-side": { type: "string" },
        ffmpeg: { type: "string" },
        help: { type: "boolean" },
      },
    });
    if (values.help) {
      io.stderr.write(`${EXTRACT_WORKER_USAGE}\n`);
      return 0;
    }
    const parameters = frameParameters(values);
    const concurrency = values.jobs === undefined ? 1 : positiveInt("--jobs").parse(values.jobs);
    const intervalS = values.interval === undefined ? 10 : z.coerce.number().min(0.1).max(3600).parse(values.interval);
    const tools = frameTools(values.ffmpeg, io);
    database = await resolveDatabase((line) => io.stderr.write(`${line}\n`));
    prisma = createPrismaClient(database.url);
    const result = await runExtractWorker({
      deps: { prisma, storage: getStorage() },
      projectId: values.project,
      parameters,
      concurrency,
      frameTools: tools,
      once: values.once ?? false,
      intervalMs: intervalS * 1000,
      signal: io.signal,
      log: (line) => io.stderr.write(`${line}\n`),
    });
    io.stdout(`extracted ${result.extracted}, failed ${result.failed}`);
    return values.once && result.failed > 0 ? 1 : 0;
  } catch (error) {
    return reportError(error, io, EXTRACT_WORKER_USAGE);
  } finally {
    await prisma?.$disconnect();
    await database?.stop();
  }
}
