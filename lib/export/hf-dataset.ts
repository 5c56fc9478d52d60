import { pipeline } from "node:stream/promises";
import type { Pack } from "tar-stream";
import { stringify as yamlStringify } from "yaml";
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";
import { addTarText, tarDownload, type TarWriting } from "../format/tar-download";
import { EXPORT_BATCH_VIDEOS, exportBatches, exportReviewers, type ExportRow } from "../agreement/export-rows";
import { exportFileName } from "../agreement/export-file-name";
import { projectAgreement } from "../agreement/load";
import {
  agreementQuerySchema,
  exportQuerySchema,
  resolveReportFilter,
  type ReportFilter,
} from "../agreement/report-filter";
import type { AgreementReport, StatBlock } from "../agreement/types";
import { getStorage } from "../storage/storage";
import type { ObjectStorage } from "../storage/object-storage";
import { catalogFor, type TaskCatalogue } from "../task-modules/task-catalogue";
import {
  targetIdOfCategory,
  type MetricDeclaration,
  type Scale,
  type TargetDeclaration,
  type TaskDeclaration,
} from "../task-modules/task-declaration";
import { log } from "../observability/logger";
import { HF_SPANS_FILE, hfSpanRows, hfSpansCardSection } from "../spans/span-files/hf-spans";
import { planHfSplits, type HfSplitPlan } from "./hf-splits";
import type { HfSplitSpec } from "./hf-splits.validation";

/**
 * A run as a Hugging Face dataset, streamed as a .tar: `data/<split>-NNNNN.jsonl` shards (written whenever 50
 * videos' rows are waiting, so no shard is held in memory longer than its batch; one split, `test`, unless the
 * export asks for a split by seed, metadata field or label set: hf-splits.ts), the frames the judge saw as JPEG files under
 * `frames/<video id>/`, and a `README.md` dataset card (YAML front matter the Hub reads: configs/data_files,
 * dataset_info.features, license, task_categories). The card comes last in the tar because it states the
 * row count, known only once every row is written. JSONL rather than Parquet: the Hub and `datasets` read it
 * natively, and it streams row by row without a columnar writer holding a row group in memory.
 * Reviewers are counted, never named: rows carry their values, not their ids, names, notes or reasons.
 */

/** A split's shards, as the card's `data_files` name them (split names hold no `-`, so no glob takes another's). */
export function hfDataGlob(split: string): string {
  return `data/${split}-*.jsonl`;
}

export interface HfDatasetRow {
  video_id: string;
  path: string;
  prompt: string | null;
  model: string | null;
  dimensions: string[];
  /** "score", a reviewed metric id, or "presence". */
  target: string;
  step: string | null;
  scope_index: number | null;
  category: string;
  /** The declared target or metric the category belongs to (see the card's label definitions). */
  label_id: string;
  prompt_version: string | null;
  judge_value: number | null;
  frame_timestamps: number[];
  /** The frames the judge saw, as paths inside the dataset (`frames/<video>/<index>.jpg`). */
  frames: string[];
  /** Each reviewer's value, anonymous, in no meaningful order. */
  human_values: number[];
  human_accepted_judge: boolean[];
  human_mean: number | null;
  gold_value: number | null;
}

/** The card's feature list, in the Hub's `dataset_info.features` notation. */
const FEATURES: { name: keyof HfDatasetRow; dtype?: string; sequence?: string }[] = [
  { name: "video_id", dtype: "string" },
  { name: "path", dtype: "string" },
  { name: "prompt", dtype: "string" },
  { name: "model", dtype: "string" },
  { name: "dimensions", sequence: "string" },
  { name: "target", dtype: "string" },
  { name: "step", dtype: "string" },
  { name: "scope_index", dtype: "int64" },
  { name: "category", dtype: "string" },
  { name: "label_id", dtype: "string" },
  { name: "prompt_version", dtype: "string" },
  { name: "judge_value", dtype: "float64" },
  { name: "frame_timestamps", sequence: "float64" },
  { name: "frames", sequence: "string" },
  { name: "human_values", sequence: "float64" },
  { name: "human_accepted_judge", sequence: "bool" },
  { name: "human_mean", dtype: "float64" },
  { name: "gold_value", dtype: "float64" },
];

const FEATURE_MEANINGS: Record<keyof HfDatasetRow, string> = {
  video_id: "FrameJury's id of the video",
  path: "the video's path as imported (folder/file name)",
  prompt: "the generation prompt, when known",
  model: "the generator model, when known",
  dimensions: "the video's dimensions (categories of the prompt list)",
  target: '"score" for one judge score, a reviewed metric id for a per-video metric, "presence" for a presence target',
  step: "the pipeline step that produced a score (null for per-video metrics)",
  scope_index: "key frame / cluster ordinal of a score (null for per-video metrics)",
  category: "the score's category or the metric id",
  label_id: "the declared target or metric the category belongs to (see Label definitions)",
  prompt_version: "hash of the prompt template(s) the judge was given",
  judge_value: "the judge's value, on the label's scale",
  frame_timestamps: "timestamps (s) of the frames the judge saw",
  frames: "paths of those frames' JPEG files inside this dataset",
  human_values: "every reviewer's value of this target (anonymous)",
  human_accepted_judge: "per entry of human_values: taken with the explicit accept-the-judge action",
  human_mean: "mean of human_values (null when nobody reviewed it)",
  gold_value: "the adjudicated gold value, when an owner set one",
};

function frameFileName(videoId: string, index: number): string {
  return `frames/${videoId}/${String(index).padStart(5, "0")}.jpg`;
}

export function hfDatasetRow(
  row: ExportRow,
  task: TaskDeclaration | undefined,
  framesByTimestamp: ReadonlyMap<number, string>,
): HfDatasetRow {
  const values = row.reviews.map((r) => r.value);
  return {
    video_id: row.videoId,
    path: row.path,
    prompt: row.prompt,
    model: row.model,
    dimensions: row.dimensions,
    target: row.target,
    step: row.step,
    scope_index: row.scopeIndex,
    category: row.category,
    label_id: task ? targetIdOfCategory(task, row.category) : row.category,
    prompt_version: row.promptVersion,
    judge_value: row.judgeValue,
    frame_timestamps: row.frameTimestamps,
    frames: row.frameTimestamps.flatMap((t) => {
      const file = framesByTimestamp.get(t);
      return file ? [file] : [];
    }),
    human_values: values,
    human_accepted_judge: row.reviews.map((r) => r.acceptedJudge),
    human_mean: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
    gold_value: row.gold?.value ?? null,
  };
}

function scaleText(scale: Scale): string {
  if (scale.kind === "numeric")
    return `numeric ${scale.min}–${scale.max}${scale.step ? ` in steps of ${scale.step}` : ""}`;
  return `categorical: ${scale.values.map((v) => `${v.value} = ${v.label}`).join(", ")}`;
}

function positiveText(label: TargetDeclaration | MetricDeclaration): string {
  const rule = label.positive;
  const when = rule.op === "==" ? `= ${rule.value}` : `${rule.op} ${rule.threshold}`;
  return `${rule.label} when ${when}`;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function statNumber(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(2);
}

function statRows(name: string, block: StatBlock | undefined): string[] {
  if (!block) return [];
  return Object.entries(block.values).map(([stat, value]) => {
    const ci = block.ci[stat];
    return `| ${cell(name)} | ${block.n} | ${cell(stat)} | ${statNumber(value)} | ${ci ? `${statNumber(ci[0])}–${statNumber(ci[1])}` : "—"} |`;
  });
}

export interface HfProvenance {
  runId: string;
  task: TaskDeclaration | undefined;
  pipeline: string;
  endpointName: string;
  endpointModel: string;
  simulated: boolean;
  createdAt: Date;
  finishedAt: Date | null;
  promptHashes: string[];
}

/** A split as written: its rows and shards. */
export interface HfWrittenSplit {
  name: string;
  description: string;
  rows: number;
  shards: string[];
}

/** The card's YAML front matter: what the Hub reads to list the dataset and load its splits. */
function hfFrontMatter(
  projectName: string,
  p: HfProvenance,
  splits: HfWrittenSplit[],
  rowCount: number,
  spanCount: number,
) {
  const features = FEATURES.map((f) =>
    f.sequence ? { name: f.name, sequence: f.sequence } : { name: f.name, dtype: f.dtype },
  );
  return {
    license: "other",
    license_name: "to-be-chosen",
    pretty_name: `${projectName}: ${p.task?.label ?? p.pipeline} judgments (run ${p.runId})`,
    task_categories: ["video-classification"],
    tags: ["framejury", "llm-as-a-judge", "human-evaluation", "ai-generated-video"],
    size_categories: [
      rowCount < 1000 ? "n<1K" : rowCount < 10_000 ? "1K<n<10K" : rowCount < 100_000 ? "10K<n<100K" : "100K<n<1M",
    ],
    configs: [
      { config_name: "default", data_files: splits.map((sp) => ({ split: sp.name, path: hfDataGlob(sp.name) })) },
      ...(spanCount ? [{ config_name: "spans", data_files: [{ split: "train", path: HF_SPANS_FILE }] }] : []),
    ],
    dataset_info: { features, splits: splits.map((sp) => ({ name: sp.name, num_examples: sp.rows })) },
  };
}

/** The card's "Features" section: each column's name, type and meaning. */
function featuresCardSection(): string[] {
  return [
    "## Features",
    "",
    "| name | type | meaning |",
    "|---|---|---|",
    ...FEATURES.map(
      (f) =>
        `| \`${f.name}\` | ${f.sequence ? `list of ${f.sequence}` : f.dtype} | ${cell(FEATURE_MEANINGS[f.name])} |`,
    ),
    "",
  ];
}

/** The card's "Label definitions" section: the task's declared targets and metrics, or why there are none. */
function labelsCardSection(p: HfProvenance): string[] {
  const labels: (TargetDeclaration | MetricDeclaration)[] = p.task ? [...p.task.targets, ...p.task.metrics] : [];
  return [
    "## Label definitions",
    "",
    labels.length
      ? "From the task's declaration; `label_id` names the row's label."
      : `The task \`${p.pipeline}\` is not declared in this FrameJury; its labels are not described.`,
    "",
    ...(labels.length
      ? [
          "| label_id | name | scale | positive | higher is better | definition |",
          "|---|---|---|---|---|---|",
          ...labels.map(
            (l) =>
              `| \`${l.id}\` | ${cell(l.label)} | ${cell(scaleText(l.scale))} | ${cell(positiveText(l))} | ${l.higherIsBetter ? "yes" : "no"} | ${cell(l.definition)} |`,
          ),
        ]
      : []),
    "",
  ];
}

/** The card's "Agreement" section: the run's agreement report, judge against reviewers and among reviewers. */
function agreementCardSection(report: AgreementReport): string[] {
  return [
    "## Agreement",
    "",
    `${report.summary.reviewers} reviewer(s) gave ${report.summary.judgments} judgment(s) of ${report.summary.reviewedItems} of ${report.summary.judgeItems} judged target(s); ${report.summary.multiReviewedItems} target(s) have two or more. Judgments taken with the accept-the-judge action are ${report.independentOnly === false ? "counted" : "left out"}. Values are FrameJury's agreement report for this run (95% bootstrap intervals).`,
    "",
    "| comparison | n | statistic | value | 95% interval |",
    "|---|---|---|---|---|",
    ...statRows("judge vs reviewers' consensus, binarised", report.humanVsJudge.consensus.binary),
    ...Object.entries(report.humanVsJudge.consensus.native).flatMap(([type, block]) =>
      statRows(`judge vs consensus, ${type}`, block),
    ),
    ...statRows("among reviewers, binarised", report.humanVsHuman.binary),
    ...Object.entries(report.humanVsHuman.native).flatMap(([type, block]) =>
      statRows(`among reviewers, ${type}`, block),
    ),
    "",
  ];
}

/** The card's "Provenance" section: which judge, run and prompt templates made the rows. */
function provenanceCardSection(p: HfProvenance, report: AgreementReport): string[] {
  return [
    "## Provenance",
    "",
    `- Judge: endpoint "${p.endpointName}", model \`${p.endpointModel}\`${p.simulated ? " (simulated run)" : ""}`,
    `- Run: \`${p.runId}\`, started ${p.createdAt.toISOString()}${p.finishedAt ? `, finished ${p.finishedAt.toISOString()}` : ""}`,
    `- Prompt template hashes: ${p.promptHashes.length ? p.promptHashes.map((h) => `\`${h}\``).join(", ") : "none recorded"}`,
    `- Reviewers counted: ${report.summary.reviewers} (not named; their notes and reasons are not exported)`,
    "",
  ];
}

/**
 * The dataset card: YAML front matter for the Hub (`configs`/`data_files`: each split with rows and the glob of
 * its shards; `dataset_info.splits` with their row counts), then splits, features, label definitions, agreement
 * and provenance in Markdown.
 */
export function hfDatasetCard(input: {
  projectName: string;
  provenance: HfProvenance;
  report: AgreementReport;
  frameCount: number;
  splits: HfWrittenSplit[];
  splitSummary: string;
  /** Spans in spans/spans.jsonl (its own config); none: no spans config. */
  spanCount?: number;
}): string {
  const { provenance: p, report } = input;
  // Splits without rows would name shards that do not exist, which `load_dataset` refuses; an empty export keeps its first.
  const splits = input.splits.some((sp) => sp.rows > 0)
    ? input.splits.filter((sp) => sp.rows > 0)
    : input.splits.slice(0, 1);
  const rowCount = input.splits.reduce((sum, sp) => sum + sp.rows, 0);
  const shardCount = input.splits.reduce((sum, sp) => sum + sp.shards.length, 0);
  const frontMatter = hfFrontMatter(input.projectName, p, splits, rowCount, input.spanCount ?? 0);
  const lines = [
    "---",
    yamlStringify(frontMatter).trimEnd(),
    "---",
    "",
    `# ${frontMatter.pretty_name}`,
    "",
    `Exported from FrameJury. One row per judge score and per reviewed per-video metric of run \`${p.runId}\` (task \`${p.pipeline}\`), with the reviewers' values and the adjudicated gold value where present. ${rowCount} rows in ${shardCount} JSONL shard(s) under \`data/\`; ${input.frameCount} frame image(s) under \`frames/\`.`,
    "",
    "The license is a placeholder: choose one (and check the generated videos' terms) before publishing.",
    "",
    "```python",
    "from datasets import load_dataset",
    `ds = load_dataset("path/to/this/folder", split="${splits[0]!.name}")`,
    "```",
    "",
    "## Splits",
    "",
    input.splitSummary,
    "",
    "| split | rows | holds |",
    "|---|---|---|",
    ...splits.map((sp) => `| \`${sp.name}\` | ${sp.rows} | ${cell(sp.description)} |`),
    "",
    ...featuresCardSection(),
    ...labelsCardSection(p),
    ...agreementCardSection(report),
    ...hfSpansCardSection(input.spanCount ?? 0),
    ...provenanceCardSection(p, report),
  ];
  return lines.join("\n");
}

async function addFrame(
  pack: Pack,
  storage: ObjectStorage,
  name: string,
  storageKey: string,
  size: number,
): Promise<void> {
  // The object first: an entry opened and then abandoned would error unheard when the pack is destroyed.
  const source = await storage.get(storageKey);
  await pipeline(source, pack.entry({ name, size, type: "file" }));
}

/** Who judged the run and how: its endpoint (as snapshotted at its start), task, times and prompt templates. */
async function runProvenance(prisma: PrismaClient, runId: string, catalogue: TaskCatalogue): Promise<HfProvenance> {
  const [run, hashes] = await Promise.all([
    prisma.judgeRun.findUniqueOrThrow({
      where: { id: runId },
      select: {
        pipeline: true,
        simulated: true,
        createdAt: true,
        finishedAt: true,
        endpointSnapshot: true,
        endpoint: { select: { name: true, model: true } },
      },
    }),
    prisma.stepResult.findMany({
      where: { runId, templateHash: { not: null } },
      distinct: ["templateHash"],
      select: { templateHash: true },
      orderBy: { templateHash: "asc" },
    }),
  ]);
  const snapshot = (run.endpointSnapshot ?? {}) as { name?: unknown; model?: unknown };
  return {
    runId,
    task: catalogue.findTask(run.pipeline) ?? undefined,
    pipeline: run.pipeline,
    endpointName: typeof snapshot.name === "string" ? snapshot.name : run.endpoint.name,
    endpointModel: typeof snapshot.model === "string" ? snapshot.model : run.endpoint.model,
    simulated: run.simulated,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    promptHashes: hashes.flatMap((h) => (h.templateHash ? [h.templateHash] : [])),
  };
}

/**
 * Writes the frames a video's rows looked at (its key and cluster frames at their timestamps) into the pack, and
 * returns each written frame's file name by its timestamp and how many frames it wrote.
 */
async function addVideoFrames(
  prisma: PrismaClient,
  pack: Pack,
  storage: ObjectStorage,
  runId: string,
  videoId: string,
  rows: { frameTimestamps: number[] }[],
): Promise<{ byTimestamp: Map<number, string>; written: number }> {
  const frames = await prisma.$queryRaw<{ index: number; timestampS: number; storageKey: string; sizeBytes: number }[]>`
    SELECT f."index", f."timestampS", f."storageKey", f."sizeBytes" FROM "frame" f JOIN "run_video" rv ON rv."frameSetId" = f."frameSetId"
    WHERE rv."runId" = ${runId} AND rv."videoId" = ${videoId} AND (f."isKeyFrame" OR f."cluster" IS NOT NULL) ORDER BY f."index"`;
  const seenTimestamps = new Set(rows.flatMap((r) => r.frameTimestamps));
  const byTimestamp = new Map<number, string>();
  let written = 0;
  for (const f of frames) {
    if (!seenTimestamps.has(f.timestampS)) continue;
    const name = frameFileName(videoId, f.index);
    byTimestamp.set(f.timestampS, name);
    await addFrame(pack, storage, name, f.storageKey, f.sizeBytes);
    written++;
  }
  return { byTimestamp, written };
}

/** Writes the dataset into `pack` and finalizes it; rejects (leaving `pack` unfinished) when reading fails. */
async function writeDataset(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  input: { projectId: string; runId: string; projectName: string; scope: ReportFilter; plan: HfSplitPlan },
  writing: TarWriting,
  storage: ObjectStorage,
) {
  const { pack } = writing;
  const { runId, scope, plan } = input;
  const [reviewers, report, provenance] = await Promise.all([
    exportReviewers(prisma, scope),
    projectAgreement(prisma, access, agreementQuerySchema(scope.ctx.catalogue).parse({ runId }), scope.ctx.catalogue),
    runProvenance(prisma, runId, scope.ctx.catalogue),
  ]);
  const task = provenance.task;

  const splits = new Map(plan.splits.map((sp) => [sp.name, { ...sp, rows: 0, shards: [] as string[], pending: "" }]));
  let frameCount = 0;
  let videosPending = 0;
  // Every split's waiting rows are written as a shard each once 50 videos' rows wait, whichever splits they are in.
  const flush = async () => {
    for (const split of splits.values()) {
      if (!split.pending) continue;
      const name = `data/${split.name}-${String(split.shards.length).padStart(5, "0")}.jsonl`;
      split.shards.push(name);
      await addTarText(pack, name, split.pending);
      split.pending = "";
    }
    videosPending = 0;
  };
  // exportBatches yields one (run, video)'s rows at a time; its frames are written as they come, its rows
  // collected into its split(s).
  for await (const rows of exportBatches(prisma, scope, reviewers)) {
    if (writing.cancelled) return;
    if (rows.length === 0) continue;
    const videoId = rows[0]!.videoId;
    const { byTimestamp, written } = await addVideoFrames(prisma, pack, storage, runId, videoId, rows);
    frameCount += written;
    const text = rows.map((row) => `${JSON.stringify(hfDatasetRow(row, task, byTimestamp))}\n`).join("");
    for (const name of plan.splitsOf(videoId)) {
      const split = splits.get(name)!;
      split.pending += text;
      split.rows += rows.length;
    }
    if (++videosPending >= EXPORT_BATCH_VIDEOS) await flush();
  }
  await flush();
  const spans = await hfSpanRows(prisma, runId, scope.matchingVideos);
  if (spans.length) await addTarText(pack, HF_SPANS_FILE, spans.map((row) => `${JSON.stringify(row)}\n`).join(""));
  const written = [...splits.values()].map(({ name, description, rows, shards }) => ({
    name,
    description,
    rows,
    shards,
  }));
  await addTarText(
    pack,
    "README.md",
    hfDatasetCard({
      projectName: input.projectName,
      provenance,
      report,
      frameCount,
      splits: written,
      splitSummary: plan.summary,
      spanCount: spans.length,
    }),
  );
  pack.finalize();
}

/** The split in the download's name: nothing for the default, else its kind and what it is by. */
function splitLabel(spec: HfSplitSpec): string | undefined {
  if (spec.kind === "seed") return `seed-${spec.seed}`;
  if (spec.kind === "metadata") return `metadata-${spec.field}`;
  return spec.kind === "labelSet" ? "labelSet" : undefined;
}

/**
 * A run's Hugging Face dataset as a .tar byte stream; every member may read it (`export.read`). A failure
 * part-way errors the stream, so the HTTP response is aborted rather than ending as a complete tar.
 */
export async function runHfDatasetExport(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  runId: string,
  options: { split?: HfSplitSpec; storage?: ObjectStorage } = {},
) {
  const { actor, projectId } = access;
  const run = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId },
    select: { id: true, pipeline: true },
  });
  if (!run) throw new NotFoundError("Run not found.");
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true } });
  const storage = options.storage ?? getStorage();
  const catalogue = await catalogFor(prisma, projectId);
  const filter = (({ format: _format, ...rest }) => rest)(exportQuerySchema(catalogue).parse({ runId }));
  const scope = await resolveReportFilter(prisma, projectId, filter, actor.userId, catalogue);
  // Before the first byte: a split that cannot be made is a 400, not a broken download.
  const plan = await planHfSplits(prisma, {
    projectId,
    runId,
    pipeline: run.pipeline,
    videoIds: scope.matchingVideos,
    spec: options.split ?? { kind: "none" },
  });
  const stream = tarDownload(
    (writing) =>
      writeDataset(prisma, access, { projectId, runId, projectName: project.name, scope, plan }, writing, storage),
    (error) => log().error({ err: error }, "Hugging Face dataset export failed part-way"),
  );
  return {
    stream,
    filename: exportFileName({
      project: project.name,
      what: "hf-dataset",
      filter: { runId, split: splitLabel(plan.spec) },
      date: new Date(),
      extension: "tar",
    }),
  };
}
