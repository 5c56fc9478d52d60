/**
 * The benchmark export in lmms-eval's task format (issue 28, item 3), so a curated Q&A set runs there: a folder
 * `<task>/` with `<task>.yaml` (the task config: `dataset_path: json` reads the docs file, `!function utils.…`
 * hooks, `generate_until`, an `accuracy` metric averaged), `<task>.jsonl` (the docs: the export's lines without
 * `extra`, whose provenance names curators) and `utils.py` (doc_to_visual / doc_to_text / process_results). Laid
 * out as lmms-eval's own video QA tasks (e.g. lmms_eval/tasks/videomme). Served as a .tar.
 */
import { addTarText, tarDownload } from "../../format/tar-download";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import type { ExportFormat } from "./curation-queues.validation";
import { type BenchmarkLine, exportBenchmark } from "./export-benchmark";

/** lmms-eval's task name: lower-case letters, digits and underscores. */
export function lmmsEvalTaskName(setName: string, format: string): string {
  const base = setName
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 60);
  return `framejury_${base || "benchmark"}_${format}`;
}

export type LmmsEvalDoc = Omit<BenchmarkLine, "extra" | "options"> & { options: Record<string, string> | null };

export function lmmsEvalDocs(lines: readonly BenchmarkLine[]): LmmsEvalDoc[] {
  // Every doc has the same keys (options null on open questions), so `datasets` infers one schema.
  return lines.map(({ extra: _extra, options, ...line }) => ({ ...line, options: options ?? null }));
}

export function lmmsEvalYaml(task: string): string {
  return `# Exported by FrameJury. Put this folder under lmms_eval/tasks/ (or pass its parent with --include_path) and run:
#   FRAMEJURY_VIDEO_ROOT=/path/to/videos python -m lmms_eval --model <model> --tasks ${task}
# data_files is read relative to the directory lmms_eval runs in; make it absolute if you run it elsewhere.
dataset_path: json
dataset_kwargs:
  data_files:
    test: lmms_eval/tasks/${task}/${task}.jsonl
task: ${task}
test_split: test
output_type: generate_until
doc_to_visual: !function utils.doc_to_visual
doc_to_text: !function utils.doc_to_text
doc_to_target: answer
generation_kwargs:
  max_new_tokens: 64
  temperature: 0
  do_sample: false
process_results: !function utils.process_results
metric_list:
  - metric: accuracy
    aggregation: mean
    higher_is_better: true
lmms_eval_specific_kwargs:
  default:
    pre_prompt: ""
    mc_post_prompt: "\\nAnswer with the option's letter from the given choices directly."
    open_post_prompt: "\\nAnswer the question briefly."
metadata:
  version: 0.0
`;
}

/** The task's hooks. Open answers are scored by normalised exact match; FrameJury's judge reads them better. */
export const LMMS_EVAL_UTILS = `"""lmms-eval hooks of a FrameJury Q&A export (doc_to_visual, doc_to_text, process_results)."""
import os
import re

# The videos' root: each doc's "video" is a path relative to it (as in the FrameJury project).
VIDEO_ROOT = os.environ.get("FRAMEJURY_VIDEO_ROOT", os.path.dirname(os.path.abspath(__file__)))


def doc_to_visual(doc):
    return [os.path.join(VIDEO_ROOT, doc["video"])]


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    kwargs = lmms_eval_specific_kwargs or {}
    text = kwargs.get("pre_prompt", "") + doc["question"]
    if doc["format"] == "mc":
        options = doc["options"] or {}
        text += "".join(f"\\n{letter}. {options[letter]}" for letter in sorted(options) if options[letter] is not None)
        return text + kwargs.get("mc_post_prompt", "\\nAnswer with the option's letter from the given choices directly.")
    return text + kwargs.get("open_post_prompt", "\\nAnswer the question briefly.")


def _letter(prediction):
    match = re.search(r"\\b([A-E])\\b", prediction.strip().upper())
    return match.group(1) if match else None


def _normalise(text):
    return " ".join(re.sub(r"[^a-z0-9 ]", " ", text.lower()).split())


def process_results(doc, results):
    prediction = results[0] if results else ""
    if doc["format"] == "mc":
        correct = _letter(prediction) == doc["answer"]
    else:
        correct = _normalise(prediction) == _normalise(doc["answer"])
    return {"accuracy": 1.0 if correct else 0.0}
`;

/** The task folder's files, by path inside the tar. */
export function lmmsEvalFiles(lines: readonly BenchmarkLine[], task: string): { name: string; text: string }[] {
  const docs = lmmsEvalDocs(lines);
  return [
    { name: `${task}/${task}.yaml`, text: lmmsEvalYaml(task) },
    { name: `${task}/${task}.jsonl`, text: docs.map((d) => JSON.stringify(d)).join("\n") + (docs.length ? "\n" : "") },
    { name: `${task}/utils.py`, text: LMMS_EVAL_UTILS },
  ];
}

/** The files as a .tar byte stream. */
export function lmmsEvalTar(files: readonly { name: string; text: string }[]): ReadableStream<Uint8Array> {
  return tarDownload(async ({ pack }) => {
    for (const f of files) await addTarText(pack, f.name, f.text);
    pack.finalize();
  });
}

/** A candidate set's accepted questions as an lmms-eval task folder (.tar), as the caller may read it (export.read). */
export async function exportLmmsEval(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  candidateSetId: string,
  format: ExportFormat,
) {
  const exported = await exportBenchmark(prisma, access, candidateSetId, format);
  const task = lmmsEvalTaskName(exported.setName, format);
  return { stream: lmmsEvalTar(lmmsEvalFiles(exported.lines, task)), filename: `${task}.tar`, task };
}
