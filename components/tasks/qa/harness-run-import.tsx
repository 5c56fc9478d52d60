"use client";

import { useRouter } from "next/navigation";
import { type ReactNode, useState } from "react";
import { buttonClass } from "@/components/class-names";
import { ApiError, apiFetch } from "@/lib/api-client";

interface HarnessAnswer {
  dryRun: boolean;
  ok: boolean;
  errors: { line: number; message: string }[];
  rows: number;
  created: number;
  decided: { correct: number; wrong: number; undecided: number };
  judging: number;
  runId: string | null;
}

const input = "rounded-md border border-slate-300 px-2 py-1.5";

/**
 * An lmms-eval log_samples file or a VLMEvalKit prediction TSV as an external QA run of a question set:
 * Check is a dry run listing every row it cannot read with its line (nothing stored); Import stores the run.
 */
export function HarnessRunImport({
  projectId,
  questionSets,
  judgeEndpoints,
  baselineRuns,
}: {
  projectId: string;
  questionSets: { id: string; name: string }[];
  judgeEndpoints: { id: string; name: string }[];
  /** Done QA runs with answers given without the video: own runs with their text-only baseline, external text-only runs. */
  baselineRuns: { id: string; label: string }[];
}) {
  const h = useHarnessImport(projectId, questionSets);
  const { setId, setSetId, format, setFormat, model, setModel, file, setFile } = h;
  const { createQuestions, setCreateQuestions, judgeEndpointId, setJudgeEndpointId, textOnly, setTextOnly } = h;
  const { baselineRunId, setBaselineRunId, busy, answer, setAnswer, failure, send } = h;

  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="harness-import"
    >
      <h2 className="text-base font-semibold text-slate-800">Import results from an eval harness</h2>
      <HarnessFilesNote />
      <div className="flex flex-wrap items-end gap-3">
        <SetAndFormatSelects
          questionSets={questionSets}
          setId={setId}
          onSet={setSetId}
          format={format}
          onFormat={setFormat}
        />
        <label className="flex flex-col gap-1">
          Model
          <input
            className={input}
            value={model}
            onChange={(e) => setModel(e.target.value)}
            placeholder="e.g. llava-video-7b"
          />
        </label>
        <JudgeAndBaselineSelects
          judgeEndpoints={judgeEndpoints}
          judgeEndpointId={judgeEndpointId}
          onJudge={(id) => {
            setJudgeEndpointId(id);
            setAnswer(null);
          }}
          baselineRuns={baselineRuns}
          baselineRunId={baselineRunId}
          textOnly={textOnly}
          onBaseline={(id) => {
            setBaselineRunId(id);
            setAnswer(null);
          }}
        />
        <label className="flex flex-col gap-1">
          File
          <input
            type="file"
            accept=".jsonl,.tsv,.xlsx"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setAnswer(null);
            }}
          />
        </label>
      </div>
      <Checkbox
        checked={createQuestions}
        onChange={(checked) => {
          setCreateQuestions(checked);
          setAnswer(null);
        }}
      >
        Create the questions the set does not have (on the project&apos;s video of the same name, from the row&apos;s
        options and answer)
      </Checkbox>
      <Checkbox
        checked={textOnly}
        onChange={(checked) => {
          setTextOnly(checked);
          setAnswer(null);
        }}
      >
        Answered without the video (a text-only run: later imports can take it as their baseline)
      </Checkbox>
      <CheckAndImportButtons
        ready={!busy && !!file && !!setId && !!model.trim()}
        checked={!!answer?.ok && !!answer.dryRun}
        onSend={(dryRun) => void send(dryRun)}
      />
      {failure && (
        <p role="alert" className="text-red-700">
          {failure}
        </p>
      )}
      {answer && <HarnessAnswerSummary answer={answer} />}
    </section>
  );
}

/** The files the import reads (lmms-eval samples, VLMEvalKit predictions), how rows match and how answers are read. */
function HarnessFilesNote() {
  return (
    <p className="text-slate-600">
      An lmms-eval <code>--log_samples</code> file (<code>samples_&lt;task&gt;_&lt;date&gt;.jsonl</code>) or a
      VLMEvalKit prediction file (<code>&lt;model&gt;_&lt;dataset&gt;.tsv</code> or <code>.xlsx</code>) becomes an
      external run of a question set. Rows match questions by video and question text; letters are read as for
      FrameJury&apos;s own runs. Open answers and answers without a readable letter go to the judge endpoint you choose,
      as in FrameJury&apos;s own runs; without one they count as unanswerable.
    </p>
  );
}

/**
 * Check (a dry run, once the form is ready) and Import (only after a Check that found no problem). `ready` is the
 * form's set, model and file with nothing on its way; `checked` a dry run that passed.
 */
function CheckAndImportButtons({
  ready,
  checked,
  onSend,
}: {
  ready: boolean;
  checked: boolean;
  onSend: (dryRun: boolean) => void;
}) {
  return (
    <div className="flex gap-3">
      <button type="button" className={buttonClass("secondary")} disabled={!ready} onClick={() => onSend(true)}>
        Check file
      </button>
      <button type="button" className={buttonClass()} disabled={!ready || !checked} onClick={() => onSend(false)}>
        Import as external run
      </button>
    </div>
  );
}

/** The form's state and its send: a dry run (Check) or the import. */
function useHarnessImport(projectId: string, questionSets: { id: string; name: string }[]) {
  const router = useRouter();
  const [setId, setSetId] = useState(questionSets[0]?.id ?? "");
  const [format, setFormat] = useState<"lmms-eval" | "vlmevalkit">("lmms-eval");
  const [model, setModel] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [createQuestions, setCreateQuestions] = useState(false);
  const [judgeEndpointId, setJudgeEndpointId] = useState("");
  const [textOnly, setTextOnly] = useState(false);
  const [baselineRunId, setBaselineRunId] = useState("");
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<HarnessAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function send(dryRun: boolean) {
    if (!file) return;
    const form = new FormData();
    form.set("file", file, file.name);
    form.set("format", format);
    form.set("model", model);
    if (dryRun) form.set("dryRun", "true");
    if (createQuestions) form.set("createQuestions", "true");
    if (judgeEndpointId) form.set("judgeEndpointId", judgeEndpointId);
    if (textOnly) form.set("textOnly", "true");
    else if (baselineRunId) form.set("baselineRunId", baselineRunId);
    setBusy(true);
    setFailure(null);
    try {
      const result = await apiFetch<HarnessAnswer>(
        `/api/v1/projects/${projectId}/question-sets/${setId}/harness-runs`,
        { method: "POST", body: form },
      );
      setAnswer(result);
      if (!dryRun) router.refresh();
    } catch (error) {
      const body = error instanceof ApiError ? (error.body as Partial<HarnessAnswer> | null) : null;
      if (body && Array.isArray(body.errors)) setAnswer(body as HarnessAnswer);
      else setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }
  return {
    ...{ setId, setSetId, format, setFormat, model, setModel, file, setFile, createQuestions, setCreateQuestions },
    ...{ judgeEndpointId, setJudgeEndpointId, textOnly, setTextOnly, baselineRunId, setBaselineRunId },
    ...{ busy, answer, setAnswer, failure, send },
  };
}

function JudgeAndBaselineSelects({
  judgeEndpoints,
  judgeEndpointId,
  onJudge,
  baselineRuns,
  baselineRunId,
  textOnly,
  onBaseline,
}: {
  judgeEndpoints: { id: string; name: string }[];
  judgeEndpointId: string;
  onJudge: (id: string) => void;
  baselineRuns: { id: string; label: string }[];
  baselineRunId: string;
  textOnly: boolean;
  onBaseline: (id: string) => void;
}) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Judge for open and letterless answers
        <select className={input} value={judgeEndpointId} onChange={(e) => onJudge(e.target.value)}>
          <option value="">none (they count as unanswerable)</option>
          {judgeEndpoints.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Text-only baseline
        <select
          className={input}
          value={textOnly ? "" : baselineRunId}
          disabled={textOnly}
          onChange={(e) => onBaseline(e.target.value)}
        >
          <option value="">none</option>
          {baselineRuns.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/** What the check found (or the import stored), with every row it could not read. */
function HarnessAnswerSummary({ answer }: { answer: HarnessAnswer }) {
  return (
    <div data-testid="harness-import-result" className="flex flex-col gap-1">
      <p>
        {answer.dryRun ? "Would import" : answer.ok ? "Imported" : "Not imported"} {answer.rows} readable rows
        {answer.created > 0 ? ` (${answer.created} new questions)` : ""}: {answer.decided.correct} correct,{" "}
        {answer.decided.wrong} wrong, {answer.decided.undecided} undecided
        {answer.judging > 0
          ? ` (${answer.judging} ${answer.dryRun ? "would go" : "went"} to the judge: the run shows its progress until they are judged)`
          : ""}
        .
      </p>
      {answer.errors.length > 0 && (
        <ul className="list-disc pl-5 text-red-700" data-testid="harness-import-errors">
          {answer.errors.map((e, i) => (
            <li key={i}>
              Line {e.line}: {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Checkbox({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex items-center gap-2">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {children}
    </label>
  );
}

type HarnessFormat = "lmms-eval" | "vlmevalkit";

function SetAndFormatSelects({
  questionSets,
  setId,
  onSet,
  format,
  onFormat,
}: {
  questionSets: { id: string; name: string }[];
  setId: string;
  onSet: (id: string) => void;
  format: HarnessFormat;
  onFormat: (format: HarnessFormat) => void;
}) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Question set
        <select className={input} value={setId} onChange={(e) => onSet(e.target.value)}>
          {questionSets.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Format
        <select className={input} value={format} onChange={(e) => onFormat(e.target.value as HarnessFormat)}>
          <option value="lmms-eval">lmms-eval samples (JSONL)</option>
          <option value="vlmevalkit">VLMEvalKit predictions (TSV or XLSX)</option>
        </select>
      </label>
    </>
  );
}
