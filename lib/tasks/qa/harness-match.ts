/**
 * Matching a harness file's rows to the questions of a set (creating the missing ones when asked), and the
 * decision FrameJury makes on an answer without an LLM.
 */
import { videoMatcher, type VideoMatch } from "../../import/video-matcher";
import { extractOptionLetter } from "./extract-letter";
import { normalise, videoStem, type HarnessRow, type HarnessRowError, type SetQuestion } from "./harness-rows";
import type { QaDecision } from "./qa-pipeline";
import type { QuestionPayload } from "./question-set-import";

/** A project video a created question can be about. */
export interface ProjectVideo {
  id: string;
  relativePath: string;
}

/** A question the import creates (its `itemId` is a placeholder until it is stored). */
export interface CreatedQuestion extends SetQuestion {
  created: true;
}

type HarnessVideo = ProjectVideo & { fileName: string };

/** The project video a row names: by its path, else by its name without folders or extension (videoStem). */
function harnessVideoMatcher(videos: readonly ProjectVideo[]): (name: string) => VideoMatch<HarnessVideo> {
  const named = videos.map((v) => ({ ...v, fileName: v.relativePath.split("/").pop() ?? v.relativePath }));
  return videoMatcher(named, { by: ["path", "file name"], fileNameKey: videoStem });
}

/** A question for a row no question of the set matches, or why there can be none. */
function questionToCreate(
  row: HarnessRow,
  matchVideo: (name: string) => VideoMatch<HarnessVideo>,
  takenIds: Set<string>,
): CreatedQuestion | { error: string } {
  if (!row.video)
    return {
      error: `no question of the set matches ${JSON.stringify(row.question)}, and the row names no video to create it on`,
    };
  const match = matchVideo(row.video);
  if ("unmatched" in match)
    return {
      error: `unknown video ${JSON.stringify(row.video)}: no video of the project has this name, so its question cannot be created`,
    };
  if ("ambiguous" in match)
    return {
      error: `${JSON.stringify(row.video)} names ${match.ambiguous.length} videos of the project (${match.ambiguous.map((v) => v.relativePath).join(", ")}); the question cannot be created`,
    };
  if (row.answer === null)
    return {
      error: row.options
        ? "cannot create the question: the row gives no correct option (answer)"
        : "cannot create the open question: the row gives no reference answer",
    };
  const { video } = match;
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
  const matchVideo = create ? harnessVideoMatcher(create.videos) : null;
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
        const made = questionToCreate(row, matchVideo!, takenIds);
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
