/**
 * Results from the eval harnesses labs already run, imported as an external QA run of a question set:
 *
 * - lmms-eval's `--log_samples` output (`samples_<task>_<date>.jsonl`): one JSON object per line with
 *   `doc_id`, `doc` (the dataset row: Video-MME's `videoID`/`question`/`options`/`answer`, MVBench's
 *   `video`/`question`/`candidates`/`answer`…), `target`, `resps` and `filtered_resps` (the model's answer,
 *   nested in lists), and the task's metric fields.
 * - VLMEvalKit's per-model prediction file (`<model>_<dataset>.tsv`, or the `.xlsx` it also writes): a header
 *   row, then `index`, `video`, `question`, the options `A`…, `answer` and `prediction`.
 *
 * Each row is matched to one of the set's questions: by the question's id (`doc_id`, `question_id` or
 * `index`), else by its video (file name without extension) and question text. The prediction is kept as
 * the run's raw answer and read exactly as FrameJury reads its own runs' answers: a multiple-choice letter
 * by extract-letter.ts, with the correctness score FrameJury's own decisions carry (so answers can be reviewed,
 * queued and compared with reviewers). An answer with no single readable letter, and every open answer, is
 * judged by the QA pipeline's own decide step when the import names a judge endpoint: the run is created queued,
 * with its decide steps for those answers left to the engine (a job per video, as an own run's). Without a judge
 * no LLM is called: such an answer is stored with its decision left undone ("skipped"), so it counts as
 * unanswerable, never as wrong. With `createQuestions`, rows no question matches become questions of the set.
 *
 * All or nothing: the dry run (and a failed import) lists every row that cannot be read, with its line.
 */
import type ExcelJS from "exceljs";
import { z } from "zod";
import type { PrismaClient, StepStatus } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { requireProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { parseCsv } from "../../import/csv";
import { checkXlsxLimits, loadExcelJs } from "../../label-sets/xlsx-limits";
import { extractOptionLetter } from "./extract-letter";
import type { QaDecision } from "./qa-pipeline";
import type { QuestionPayload } from "./question-set-import";
import { QA_PIPELINE } from "./qa-results";

export const HARNESS_FORMATS = ["lmms-eval", "vlmevalkit"] as const;

export const harnessImportFieldsSchema = z.strictObject({
  questionSetId: z.string().min(1).max(64),
  format: z.enum(HARNESS_FORMATS, { error: 'format must be "lmms-eval" or "vlmevalkit"' }),
  model: z.string().trim().min(1, "the model's name is needed").max(200),
  dryRun: z.boolean().default(false),
  /** Create the questions no question of the set matches (on the project's videos) instead of listing them. */
  createQuestions: z.boolean().default(false),
  /** Judge the open and letterless answers with this endpoint, as a QA run's judge step does (a job). */
  judgeEndpointId: z.string().min(1).max(64).optional(),
  /** The file's answers were given without the video (a harness run with no frames): the run is a text-only run. */
  textOnly: z.boolean().default(false),
  /** A text-only run of the same set (an own run with its text-only baseline, or an external run marked textOnly) whose answers become this run's baseline. */
  baselineRunId: z.string().min(1).max(64).optional(),
});
/** The multipart text fields beside the file (the set comes from the path). */
export const harnessUploadFieldsSchema = z.strictObject({
  format: harnessImportFieldsSchema.shape.format,
  model: harnessImportFieldsSchema.shape.model,
  dryRun: z
    .enum(["true", "false"], { error: 'dryRun must be "true" or "false"' })
    .optional()
    .transform((value) => value === "true"),
  createQuestions: z
    .enum(["true", "false"], { error: 'createQuestions must be "true" or "false"' })
    .optional()
    .transform((value) => value === "true"),
  judgeEndpointId: z
    .string()
    .max(64)
    .optional()
    .transform((value) => value?.trim() || undefined),
  textOnly: z
    .enum(["true", "false"], { error: 'textOnly must be "true" or "false"' })
    .optional()
    .transform((value) => value === "true"),
  baselineRunId: z
    .string()
    .max(64)
    .optional()
    .transform((value) => value?.trim() || undefined),
});
export type HarnessImportFields = Omit<z.output<typeof harnessImportFieldsSchema>, "createQuestions" | "textOnly"> & {
  createQuestions?: boolean;
  textOnly?: boolean;
};

/** A text-only run's answer to one question: its answer and decide steps as stored. */
interface BaselineAnswer {
  answer:
    | { status: StepStatus; output: unknown; rawText: string | null; templateId: string | null; error: string | null }
    | undefined;
  decide: { status: StepStatus; output: unknown; templateId: string | null; error: string | null } | undefined;
}

/**
 * The text-only answers of a baseline run by question: an own QA run's text-only baseline steps, or the
 * answers of an external run imported as text-only. Refused when the run is neither, or is not done.
 */
async function baselineAnswers(
  prisma: PrismaClient,
  projectId: string,
  baselineRunId: string,
): Promise<Map<string, BaselineAnswer>> {
  const run = await prisma.judgeRun.findFirst({
    where: { id: baselineRunId, projectId, pipeline: QA_PIPELINE },
    select: { id: true, status: true, settings: true, endpointSnapshot: true },
  });
  if (!run) throw new NotFoundError("No such QA run in this project for the text-only baseline.");
  const external = (run.endpointSnapshot as { external?: { textOnly?: unknown } } | null)?.external;
  const ownBaseline = (run.settings as { textOnlyBaseline?: unknown } | null)?.textOnlyBaseline === true;
  if (!ownBaseline && external?.textOnly !== true)
    throw new ValidationError(
      "The baseline must be a text-only run: a QA run with its text-only baseline, or an external run imported as text-only.",
    );
  if (run.status !== "done")
    throw new ValidationError(`The baseline run is ${run.status}: it can serve as a baseline once it is done.`);
  const [answerStep, decideStep] =
    external?.textOnly === true ? ["answer", "decide"] : ["text_only_answer", "text_only_decide"];
  const steps = await prisma.stepResult.findMany({
    where: { runId: run.id, stepId: { in: [answerStep!, decideStep!] } },
    select: { itemId: true, stepId: true, status: true, output: true, rawText: true, templateId: true, error: true },
  });
  const byItem = new Map<string, BaselineAnswer>();
  for (const step of steps) {
    const entry = byItem.get(step.itemId) ?? { answer: undefined, decide: undefined };
    if (step.stepId === answerStep) entry.answer = step;
    else entry.decide = step;
    byItem.set(step.itemId, entry);
  }
  return byItem;
}

/** Where the judging jobs go (the app's pg-boss queue; tests judge inline). */
export interface HarnessJudgeQueue {
  enqueue(jobs: { runId: string; videoId: string }[]): Promise<void>;
}

export interface HarnessRowError {
  line: number;
  message: string;
}

/** One readable row: which question it answers and what the model said. */
export interface HarnessRow {
  line: number;
  id: string | null;
  video: string | null;
  question: string | null;
  prediction: string;
  /** The options the file gives (letter → text), null for an open question or when it gives none. */
  options: Record<string, string> | null;
  /** The correct option's letter (multiple choice) or the reference answer (open), when the file gives it. */
  answer: string | null;
}

export interface SetQuestion {
  itemId: string;
  videoId: string;
  externalId: string;
  videoPath: string;
  payload: QuestionPayload;
}

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
/** A video's name without folders or extension, as the harnesses name videos (Video-MME's `videoID`). */
const videoStem = (name: string) =>
  normalise(
    name
      .split(/[\\/]/)
      .pop()!
      .replace(/\.[a-z0-9]{2,4}$/i, ""),
  );

function firstString(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (Array.isArray(value))
    for (const inner of value) {
      const found = firstString(inner);
      if (found !== null) return found;
    }
  return null;
}

const asText = (value: unknown) =>
  typeof value === "string" && value.trim() !== "" ? value : typeof value === "number" ? String(value) : null;

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LETTERED = /^\(?([A-Z])[.):]\s*/;

/** Options as a list: "A. text" entries keep their letter, plain texts (MVBench's candidates) are lettered in order. */
function optionsOfList(list: readonly unknown[]): Record<string, string> | null {
  const texts = list.map(asText);
  if (texts.length < 2 || texts.some((t) => t === null)) return null;
  const options: Record<string, string> = {};
  const allLettered = texts.every((t, i) => LETTERED.exec(t!.trim())?.[1] === LETTERS[i]);
  texts.forEach((t, i) => (options[LETTERS[i]!] = allLettered ? t!.trim().replace(LETTERED, "") : t!.trim()));
  return options;
}

/** The correct letter from a harness's answer field: a letter, an option's index (EgoSchema) or an option's text (MVBench). */
function answerLetter(answer: string | null, options: Record<string, string>): string | null {
  if (answer === null) return null;
  const text = answer.trim();
  const letter = /^\(?([A-Z])\)?[.:]?$/.exec(text)?.[1];
  if (letter && letter in options) return letter;
  if (/^\d+$/.test(text) && LETTERS[Number(text)]! in options) return LETTERS[Number(text)]!;
  const bare = normalise(text.replace(LETTERED, ""));
  return Object.entries(options).find(([, option]) => normalise(option) === bare)?.[0] ?? null;
}

/** The options and answer of an lmms-eval sample's doc: Video-MME's `options`, MVBench's `candidates`, EgoSchema's `option`. */
function lmmsOptionsAndAnswer(
  doc: Record<string, unknown>,
  target: unknown,
): { options: Record<string, string> | null; answer: string | null } {
  const list = [doc.options, doc.candidates, doc.option].find(Array.isArray) as unknown[] | undefined;
  const options = list ? optionsOfList(list) : null;
  const answer = asText(doc.answer) ?? asText(target);
  return options ? { options, answer: answerLetter(answer, options) } : { options: null, answer };
}

/** lmms-eval's log_samples JSONL: every line one sample. */
export function parseLmmsEvalSamples(text: string): { rows: HarnessRow[]; errors: HarnessRowError[] } {
  const rows: HarnessRow[] = [];
  const errors: HarnessRowError[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let sample: unknown;
    try {
      sample = JSON.parse(raw);
    } catch {
      errors.push({ line, message: "not a JSON object (lmms-eval writes one sample per line)" });
      return;
    }
    if (typeof sample !== "object" || sample === null || Array.isArray(sample)) {
      errors.push({ line, message: "not a JSON object (lmms-eval writes one sample per line)" });
      return;
    }
    const record = sample as Record<string, unknown>;
    const doc = (typeof record.doc === "object" && record.doc !== null ? record.doc : {}) as Record<string, unknown>;
    const prediction = firstString(record.filtered_resps) ?? firstString(record.resps);
    const question = asText(doc.question);
    const video =
      asText(doc.videoID) ??
      asText(doc.video_idx) ??
      asText(doc.video_id) ??
      asText(doc.video) ??
      asText(doc.video_name);
    const id = asText(doc.question_id) ?? asText(record.doc_id);
    const { options, answer } = lmmsOptionsAndAnswer(doc, record.target);
    const problems: string[] = [];
    if (prediction === null) problems.push("no prediction: neither filtered_resps nor resps holds the model's answer");
    if (question === null) problems.push("no question: doc.question is missing or empty");
    if (problems.length) errors.push(...problems.map((message) => ({ line, message })));
    else rows.push({ line, id, video, question, prediction: prediction!, options, answer });
  });
  return { rows, errors };
}

/** One row of a table file (TSV or a worksheet): its line (the sheet's row number) and its cells. */
interface TableRow {
  line: number;
  cells: (string | null)[];
}

/** VLMEvalKit's prediction table (its TSV, or the first worksheet of its `.xlsx`): a header row, then one question per row. */
function parseVlmEvalKitTable(table: readonly TableRow[]): { rows: HarnessRow[]; errors: HarnessRowError[] } {
  const [head, ...body] = table;
  const header = (head?.cells ?? []).map((c) => (c ?? "").trim().toLowerCase());
  const column = (name: string) => header.indexOf(name);
  const missing = ["question", "prediction"].filter((name) => column(name) < 0);
  if (missing.length)
    return {
      rows: [],
      errors: [
        {
          line: head?.line ?? 1,
          message: `the header has no ${missing.map((m) => `"${m}"`).join(", ")} column (VLMEvalKit writes index, video, question, A…, answer, prediction)`,
        },
      ],
    };
  const rows: HarnessRow[] = [];
  const errors: HarnessRowError[] = [];
  for (const { line, cells } of body) {
    if (cells.every((c) => c === null || c.trim() === "")) continue;
    const cell = (name: string) => (column(name) >= 0 ? asText(cells[column(name)]) : null);
    const question = cell("question");
    const prediction = cell("prediction");
    const problems: string[] = [];
    if (prediction === null) problems.push("no prediction: the prediction cell is empty");
    if (question === null) problems.push("no question: the question cell is empty");
    if (problems.length) errors.push(...problems.map((message) => ({ line, message })));
    else {
      const lettered: Record<string, string> = {};
      for (const letter of LETTERS)
        if (cell(letter.toLowerCase()) !== null) lettered[letter] = cell(letter.toLowerCase())!.trim();
      const options = Object.keys(lettered).length >= 2 ? lettered : null;
      const answer = cell("answer");
      rows.push({
        line,
        id: cell("index"),
        video: cell("video") ?? cell("video_path"),
        question,
        prediction: prediction!,
        options,
        answer: options ? answerLetter(answer, options) : answer,
      });
    }
  }
  return { rows, errors };
}

/**
 * VLMEvalKit's prediction TSV: a header row, then one question per record. VLMEvalKit writes it with pandas
 * (`to_csv(sep="\t")`, every cell or only those holding a tab, line break or quote in `"…"`, quotes doubled), so a
 * multi-line question is one quoted cell: read as delimited text, each row's line is the line it starts on.
 */
export function parseVlmEvalKitTsv(text: string): { rows: HarnessRow[]; errors: HarnessRowError[] } {
  const parsed = parseCsv(text, { delimiter: "\t" });
  if (!parsed.ok) {
    const match = /^line (\d+): (.*)$/s.exec(parsed.error);
    return {
      rows: [],
      errors: [
        { line: match ? Number(match[1]) : 1, message: `not a readable TSV file: ${match ? match[2]! : parsed.error}` },
      ],
    };
  }
  return parseVlmEvalKitTable(
    parsed.records.map(({ line, fields }) => ({ line, cells: fields.length === 1 && fields[0] === "" ? [] : fields })),
  );
}

function cellText(value: ExcelJS.CellValue): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    if ("richText" in value) return value.richText.map((r) => r.text).join("");
    if ("result" in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
    if ("text" in value) return String(value.text);
  }
  return String(value);
}

/** An `.xlsx` is a zip: its first bytes are "PK\x03\x04". */
export const isXlsx = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * VLMEvalKit's prediction `.xlsx` (`<model>_<dataset>.xlsx`, the same columns as its TSV) from its first
 * worksheet; each row's line is its row number in the sheet. The workbook passes xlsx-limits.ts first.
 */
export async function parseVlmEvalKitXlsx(
  bytes: Uint8Array,
): Promise<{ rows: HarnessRow[]; errors: HarnessRowError[] }> {
  await checkXlsxLimits(bytes);
  const excel = await loadExcelJs();
  const workbook = new excel.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as never);
  } catch (error) {
    throw new ValidationError(
      `The file is not a readable .xlsx workbook (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return { rows: [], errors: [{ line: 1, message: "the workbook has no worksheet" }] };
  const table: TableRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: (string | null)[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value));
    table.push({ line: number, cells });
  });
  return parseVlmEvalKitTable(table);
}

/** A project video a created question can be about. */
export interface ProjectVideo {
  id: string;
  relativePath: string;
}

/** A question the import creates (its `itemId` is a placeholder until it is stored). */
export interface CreatedQuestion extends SetQuestion {
  created: true;
}

/** A question for a row no question of the set matches, or why there can be none. */
function questionToCreate(
  row: HarnessRow,
  videos: readonly ProjectVideo[],
  takenIds: Set<string>,
): CreatedQuestion | { error: string } {
  if (!row.video)
    return {
      error: `no question of the set matches ${JSON.stringify(row.question)}, and the row names no video to create it on`,
    };
  const stem = videoStem(row.video);
  const exact = videos.filter((v) => v.relativePath === row.video);
  const candidates = exact.length ? exact : videos.filter((v) => videoStem(v.relativePath) === stem);
  if (candidates.length === 0)
    return {
      error: `unknown video ${JSON.stringify(row.video)}: no video of the project has this name, so its question cannot be created`,
    };
  if (candidates.length > 1)
    return {
      error: `${JSON.stringify(row.video)} names ${candidates.length} videos of the project (${candidates.map((v) => v.relativePath).join(", ")}); the question cannot be created`,
    };
  if (row.answer === null)
    return {
      error: row.options
        ? "cannot create the question: the row gives no correct option (answer)"
        : "cannot create the open question: the row gives no reference answer",
    };
  const video = candidates[0]!;
  let externalId = row.id ?? `line-${row.line}`;
  if (takenIds.has(externalId)) externalId = `${externalId}-line-${row.line}`;
  takenIds.add(externalId);
  return {
    created: true,
    itemId: `new:${row.line}`,
    videoId: video.id,
    externalId,
    videoPath: video.relativePath,
    payload: {
      video: row.video,
      question: row.question!,
      format: row.options ? "mc" : "open",
      options: row.options,
      answer: row.answer,
      category: null,
      granularity: null,
      extra: null,
      line: row.line,
    },
  };
}

/**
 * Each row's question in the set (by video + question text, else by id), or an error with its line. With
 * `create`, a row no question matches gets a new question on its video (by path, else by name without
 * folders or extension, among the project's videos), from the options and answer the row gives.
 */
export function matchHarnessRows(
  rows: readonly HarnessRow[],
  questions: readonly SetQuestion[],
  create?: { videos: readonly ProjectVideo[] },
): { matched: { row: HarnessRow; question: SetQuestion | CreatedQuestion }[]; errors: HarnessRowError[] } {
  const byText = new Map<string, SetQuestion>();
  const byId = new Map<string, SetQuestion>();
  const videos = new Set<string>();
  for (const q of questions) {
    byText.set(`${videoStem(q.videoPath)}\u0000${normalise(q.payload.question)}`, q);
    byId.set(q.externalId, q);
    videos.add(videoStem(q.videoPath));
    videos.add(videoStem(q.payload.video));
  }
  const takenIds = new Set(questions.map((q) => q.externalId));
  const created = new Map<string, CreatedQuestion>();
  const matched: { row: HarnessRow; question: SetQuestion | CreatedQuestion }[] = [];
  const errors: HarnessRowError[] = [];
  const seen = new Map<string, number>();
  for (const row of rows) {
    const key = row.video ? `${videoStem(row.video)}\u0000${normalise(row.question ?? "")}` : null;
    let question: SetQuestion | CreatedQuestion | undefined = key ? byText.get(key) : undefined;
    if (!question && row.id !== null) {
      const candidate = byId.get(row.id);
      if (
        candidate &&
        (!row.video || videoStem(candidate.videoPath) === videoStem(row.video)) &&
        normalise(candidate.payload.question) === normalise(row.question ?? "")
      )
        question = candidate;
    }
    if (!question && create) {
      question = key ? created.get(key) : undefined;
      if (!question) {
        const made = questionToCreate(row, create.videos, takenIds);
        if ("error" in made) {
          errors.push({ line: row.line, message: made.error });
          continue;
        }
        created.set(key!, made);
        question = made;
      }
    }
    if (!question) {
      if (row.video && !videos.has(videoStem(row.video)))
        errors.push({
          line: row.line,
          message: `unknown video ${JSON.stringify(row.video)}: no question of the set is about it`,
        });
      else
        errors.push({
          line: row.line,
          message: `no question of the set matches ${JSON.stringify(row.question)}${row.video ? ` on ${row.video}` : ""}`,
        });
      continue;
    }
    const previous = seen.get(question.itemId);
    if (previous !== undefined) {
      errors.push({ line: row.line, message: `answers the same question as line ${previous}` });
      continue;
    }
    seen.set(question.itemId, row.line);
    matched.push({ row, question });
  }
  return { matched, errors };
}

/** The decision FrameJury makes without an LLM: the letter of a multiple-choice answer, else none. */
export function decideWithoutJudge(
  payload: QuestionPayload,
  prediction: string,
): { decision: QaDecision } | { undecided: string } {
  if (payload.format !== "mc" || !payload.options)
    return { undecided: "An open answer of an external run is judged only when the import names a judge endpoint." };
  const extraction = extractOptionLetter(prediction, payload.options);
  if (!extraction.letter)
    return {
      undecided: `No single option letter could be read (${extraction.reason}); the import named no judge endpoint.`,
    };
  const right = extraction.letter === payload.answer;
  return {
    decision: {
      outcome: right ? "correct" : "wrong",
      decidedBy: "letter",
      letter: extraction.letter,
      extraction: null,
      judgement: null,
      reason: `${extraction.reason[0]!.toUpperCase()}${extraction.reason.slice(1)}; the correct option is ${payload.answer}.`,
    },
  };
}

export interface HarnessImportResult {
  dryRun: boolean;
  ok: boolean;
  errors: HarnessRowError[];
  rows: number;
  /** Questions created in the set (createQuestions), counted in `rows`. */
  created: number;
  decided: { correct: number; wrong: number; undecided: number };
  /** Undecided answers handed to the judge endpoint (judgeEndpointId): the run stays queued/running until they are judged. */
  judging: number;
  runId: string | null;
}

/** The archived endpoint record an external model's runs hang on (runs need one; it is never called). */
async function externalEndpoint(prisma: PrismaClient, actor: Actor, projectId: string, model: string) {
  const name = `External: ${model}`;
  const existing = await prisma.judgeEndpoint.findFirst({
    where: { projectId, name, baseUrl: "external:" },
    select: { id: true },
  });
  if (existing) return existing.id;
  return (
    await prisma.judgeEndpoint.create({
      data: { projectId, name, baseUrl: "external:", model, createdById: actor.userId, archivedAt: new Date() },
      select: { id: true },
    })
  ).id;
}

/** The text-only steps an external run gets from its baseline's answer (skipped when the baseline has none). */
function baselineSteps(
  common: { runId: string; videoId: string; itemId: string; scopeIndex: number; startedAt: Date; finishedAt: Date },
  answer: BaselineAnswer | undefined,
  isMc: boolean,
) {
  const missing = "The baseline run has no answer to this question.";
  const answered = answer?.answer?.status === "done";
  return [
    answered
      ? {
          ...common,
          stepId: "text_only_answer",
          status: "done" as const,
          templateId: isMc ? "qa/text-only-mc" : "qa/text-only-open",
          output: answer.answer!.output as never,
          rawText: answer.answer!.rawText,
        }
      : {
          ...common,
          stepId: "text_only_answer",
          status: "skipped" as const,
          templateId: isMc ? "qa/text-only-mc" : "qa/text-only-open",
          error: answer?.answer?.error ?? missing,
        },
    answered && answer.decide?.status === "done"
      ? {
          ...common,
          stepId: "text_only_decide",
          status: "done" as const,
          templateId: answer.decide.templateId ?? (isMc ? "qa/judge-option" : "qa/judge-open"),
          output: answer.decide.output as never,
        }
      : {
          ...common,
          stepId: "text_only_decide",
          status: "skipped" as const,
          templateId: isMc ? "qa/judge-option" : "qa/judge-open",
          error: answer?.decide?.error ?? missing,
        },
  ];
}

/** Import one harness file as an external QA run of a question set (owners; `runs.manage`). */
export async function importHarnessRun(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  fields: HarnessImportFields,
  bytes: Uint8Array,
  queue?: HarnessJudgeQueue,
): Promise<HarnessImportResult> {
  await requireProjectAccess(prisma, actor, projectId, "runs.manage");
  const set = await prisma.itemSet.findFirst({ where: { id: fields.questionSetId, projectId }, select: { id: true } });
  if (!set) throw new NotFoundError("No such question set in this project.");
  const items = await prisma.item.findMany({
    where: { setId: set.id, kind: "question" },
    select: { id: true, videoId: true, externalId: true, payload: true, video: { select: { relativePath: true } } },
  });
  const questions: SetQuestion[] = items.map((i) => ({
    itemId: i.id,
    videoId: i.videoId,
    externalId: i.externalId,
    videoPath: i.video.relativePath,
    payload: i.payload as unknown as QuestionPayload,
  }));
  const text = () => new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
  const parsed =
    fields.format === "lmms-eval"
      ? parseLmmsEvalSamples(text())
      : isXlsx(bytes)
        ? await parseVlmEvalKitXlsx(bytes)
        : parseVlmEvalKitTsv(text());
  const projectVideos = fields.createQuestions
    ? await prisma.video.findMany({ where: { projectId }, select: { id: true, relativePath: true } })
    : [];
  const { matched, errors: matchErrors } = matchHarnessRows(
    parsed.rows,
    questions,
    fields.createQuestions ? { videos: projectVideos } : undefined,
  );
  const errors = [...parsed.errors, ...matchErrors].sort((a, b) => a.line - b.line);
  if (parsed.rows.length + parsed.errors.length === 0) errors.push({ line: 1, message: "the file has no rows" });
  const decisions = matched.map((m) => ({ ...m, result: decideWithoutJudge(m.question.payload, m.row.prediction) }));
  const decided = {
    correct: decisions.filter((d) => "decision" in d.result && d.result.decision.outcome === "correct").length,
    wrong: decisions.filter((d) => "decision" in d.result && d.result.decision.outcome === "wrong").length,
    undecided: decisions.filter((d) => "undecided" in d.result).length,
  };
  const toCreate = matched.flatMap((m) => ("created" in m.question ? [m.question] : []));
  // Judging: the undecided answers' videos go through the engine, which needs a frame set to hang each on (the
  // judge sees no frames); the newest of the video's sets.
  const judge = fields.judgeEndpointId
    ? await prisma.judgeEndpoint.findFirst({
        where: { id: fields.judgeEndpointId, projectId },
        select: { id: true, name: true, baseUrl: true, model: true, archivedAt: true },
      })
    : null;
  if (fields.judgeEndpointId && !judge) throw new NotFoundError("No such judge endpoint in this project.");
  if (judge?.archivedAt)
    throw new ValidationError(`Endpoint ${judge.name} is archived: restore it on the Judge page to judge with it.`);
  const toJudge = judge ? decisions.filter((d) => "undecided" in d.result) : [];
  const judgedVideos = [...new Set(toJudge.map((d) => d.question.videoId))];
  const frameSets = new Map(
    (
      await prisma.frameSet.findMany({
        where: { videoId: { in: [...new Set(decisions.map((d) => d.question.videoId))] } },
        orderBy: { createdAt: "desc" },
        select: { id: true, videoId: true },
      })
    )
      .reverse()
      .map((f) => [f.videoId, f.id]),
  );
  for (const d of toJudge)
    if (!frameSets.has(d.question.videoId))
      errors.push({
        line: d.row.line,
        message: `cannot be judged yet: the video ${d.question.videoPath} has no frames (extract them first)`,
      });
  errors.sort((a, b) => a.line - b.line);
  if (fields.textOnly && fields.baselineRunId)
    throw new ValidationError(
      "A text-only run has no text-only baseline of its own: give textOnly or baselineRunId, not both.",
    );
  const baseline = fields.baselineRunId ? await baselineAnswers(prisma, projectId, fields.baselineRunId) : null;
  const base = {
    dryRun: fields.dryRun,
    ok: errors.length === 0,
    errors,
    rows: matched.length,
    created: toCreate.length,
    decided,
    judging: toJudge.length,
    runId: null,
  };
  if (fields.dryRun || errors.length) return base;

  // The run's videos, as an own run's (video lists, review queues and the run's page go through them): each on its
  // newest frame set, which the judge never shows (a video without frames is left out of those lists). The videos
  // the judge decides stay queued for the engine; the others are done, with the summary the pipeline would write.
  const judgedSet = new Set(judgedVideos);
  const runVideos = [...frameSets].map(([videoId, frameSetId]) => {
    if (judgedSet.has(videoId)) return { videoId, frameSetId, status: "queued" as const };
    const items = decisions
      .filter((d) => d.question.videoId === videoId)
      .map((d) => {
        const decision = "decision" in d.result ? d.result.decision : null;
        const blind = baseline?.get(d.question.itemId)?.decide;
        return {
          itemId: d.question.itemId,
          outcome: decision?.outcome ?? "unanswerable",
          textOnlyOutcome: baseline
            ? blind?.status === "done"
              ? (blind.output as QaDecision).outcome
              : "unanswerable"
            : null,
          decidedBy: decision ? "letter" : null,
        };
      });
    return {
      videoId,
      frameSetId,
      status: "done" as const,
      summary: { items, complete: items.every((item) => item.outcome !== "unanswerable") },
    };
  });
  const endpointId = await externalEndpoint(prisma, actor, projectId, fields.model);
  const now = new Date();
  const runId = await prisma.$transaction(async (tx) => {
    if (toCreate.length) {
      const stored = await tx.item.createManyAndReturn({
        data: toCreate.map((q) => ({
          projectId,
          setId: set.id,
          videoId: q.videoId,
          externalId: q.externalId,
          kind: "question",
          group: "",
          payload: q.payload as never,
        })),
        select: { id: true, externalId: true },
      });
      const idOf = new Map(stored.map((item) => [item.externalId, item.id]));
      for (const q of toCreate) q.itemId = idOf.get(q.externalId)!;
      await tx.itemSet.update({ where: { id: set.id }, data: { itemCount: { increment: toCreate.length } } });
    }
    const run = await tx.judgeRun.create({
      data: {
        projectId,
        pipeline: QA_PIPELINE,
        endpointId,
        status: toJudge.length ? "queued" : "done",
        settings: {
          frames: 8,
          resize: { mode: "quarter" },
          textOnlyBaseline: baseline !== null,
          ...(judge ? { judgeEndpointId: judge.id } : {}),
        },
        endpointSnapshot: {
          name: `External: ${fields.model}`,
          model: fields.model,
          external: {
            source: fields.format,
            questionSetId: set.id,
            ...(fields.textOnly ? { textOnly: true } : {}),
            ...(fields.baselineRunId ? { baselineRunId: fields.baselineRunId } : {}),
          },
          ...(judge
            ? { roles: { judge: { id: judge.id, name: judge.name, baseUrl: judge.baseUrl, model: judge.model } } }
            : {}),
        },
        simulated: judge ? /^stub/i.test(judge.model) || judge.name.toLowerCase().includes("simulated") : false,
        createdById: actor.userId,
        startedAt: toJudge.length ? null : now,
        finishedAt: toJudge.length ? null : now,
        // The videos whose answers the judge decides: the engine judges them as it judges an own run's.
        ...(runVideos.length ? { videos: { createMany: { data: runVideos } } } : {}),
      },
      select: { id: true },
    });
    const perVideo = new Map<string, number>();
    await tx.runItem.createMany({
      data: decisions.map((d) => {
        const position = perVideo.get(d.question.videoId) ?? 0;
        perVideo.set(d.question.videoId, position + 1);
        return { runId: run.id, itemId: d.question.itemId, videoId: d.question.videoId, position };
      }),
    });
    const positions = new Map<string, number>();
    const steps = decisions.flatMap((d) => {
      const scopeIndex = positions.get(d.question.videoId) ?? 0;
      positions.set(d.question.videoId, scopeIndex + 1);
      const common = {
        runId: run.id,
        videoId: d.question.videoId,
        itemId: d.question.itemId,
        scopeIndex,
        startedAt: now,
        finishedAt: now,
      };
      const isMc = d.question.payload.format === "mc";
      return [
        {
          ...common,
          stepId: "answer",
          status: "done" as const,
          templateId: isMc ? "qa/answer-mc" : "qa/answer-open",
          output: { text: d.row.prediction, refusal: null, finishReason: null },
          rawText: d.row.prediction,
        },
        "decision" in d.result
          ? {
              ...common,
              stepId: "decide",
              status: "done" as const,
              templateId: "qa/judge-option",
              output: d.result.decision as never,
            }
          : judge
            ? null // planned and run by the engine, with the judge endpoint
            : {
                ...common,
                stepId: "decide",
                status: "skipped" as const,
                templateId: isMc ? "qa/judge-option" : "qa/judge-open",
                error: d.result.undecided,
              },
        // The baseline's answer without the video, copied as this run's own text-only steps (as an own run's baseline).
        ...(baseline ? baselineSteps(common, baseline.get(d.question.itemId), isMc) : []),
      ].filter((step) => step !== null);
    });
    const stored = await tx.stepResult.createManyAndReturn({
      data: steps,
      select: { id: true, videoId: true, itemId: true, stepId: true, scopeIndex: true, status: true, output: true },
    });
    // The correctness score, as the engine writes it for a decided answer: reviews, queues and agreement read it.
    await tx.score.createMany({
      data: stored
        .filter((step) => step.stepId === "decide" && step.status === "done")
        .map((step) => ({
          runId: run.id,
          videoId: step.videoId,
          stepResultId: step.id,
          itemId: step.itemId,
          stepId: step.stepId,
          scopeIndex: step.scopeIndex,
          category: "correctness",
          value: (step.output as unknown as QaDecision).outcome === "correct" ? 1 : 0,
        })),
    });
    await tx.runMetric.createMany({
      data: decisions.flatMap((d) =>
        "decision" in d.result
          ? [
              {
                runId: run.id,
                videoId: d.question.videoId,
                itemId: d.question.itemId,
                metric: "correct",
                value: d.result.decision.outcome === "correct" ? 1 : 0,
              },
              // As the pipeline's item metrics: review queues pick answers by it (a letter read: 0).
              {
                runId: run.id,
                videoId: d.question.videoId,
                itemId: d.question.itemId,
                metric: "judge_decided",
                value: 0,
              },
            ]
          : [],
      ),
    });
    if (baseline)
      await tx.runMetric.createMany({
        data: decisions.flatMap((d) => {
          const decide = baseline.get(d.question.itemId)?.decide;
          const outcome = decide?.status === "done" ? (decide.output as QaDecision).outcome : null;
          return outcome
            ? [
                {
                  runId: run.id,
                  videoId: d.question.videoId,
                  itemId: d.question.itemId,
                  metric: "correct_without_video",
                  value: outcome === "correct" ? 1 : 0,
                },
              ]
            : [];
        }),
      });
    return run.id;
  });
  if (judgedVideos.length) {
    if (!queue) throw new Error("importHarnessRun: judging needs a job queue");
    await queue.enqueue(judgedVideos.map((videoId) => ({ runId, videoId })));
  }
  return { ...base, runId };
}
