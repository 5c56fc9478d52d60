"use client";

import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { FilePicker } from "@/components/file-picker";
import type { LabelSetFormatDeclaration } from "@/lib/task-modules/label-set-format";
import { labelTargetChoices } from "@/lib/label-sets/label-target-examples";
import { LabelSetHelp, LabelSetList, LabelSetPlanView } from "./label-set-read-outs";
import { useLabelSetRequests } from "./use-label-set-requests";
import { ColumnMapEditor, columnMapJson, type ColumnMapState } from "@/components/label-sets/column-map-editor";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import { taskLabelSetFormatDeclarations } from "@/lib/label-sets/label-sets.validation";

/** The core's generic CSV/JSONL label file, offered after the tasks' own formats. */
const GENERIC_FORMAT: LabelSetFormatDeclaration = {
  id: "generic",
  label: "Generic CSV / JSONL",
  description: "any labels as CSV or JSONL",
  fileLabel: "Label file",
  accept: ".csv,.jsonl,.ndjson",
  defaultName: "",
};

/** A wide file's map before the user names its columns. */
const NEW_COLUMN_MAP: ColumnMapState = { video: "video", annotator: "", targets: [{ column: "", target: "" }] };

/** The label set request's form: the file, its format's options, and whether it is a dry run. */
function labelSetRequestForm({
  format,
  file,
  name,
  citation,
  match,
  mappingColumn,
  wide,
  columnMap,
  dryRun,
}: {
  format: LabelSetFormatDeclaration;
  file: File;
  name: string;
  citation: string;
  match: "file_name" | "column";
  mappingColumn: string;
  wide: boolean;
  columnMap: ColumnMapState;
  dryRun: boolean;
}): FormData {
  const form = new FormData();
  form.set("format", format.id);
  form.set("name", name);
  form.set("citation", citation);
  if (format.matchVideos) {
    form.set("match", match);
    if (match === "column") form.set("mappingColumn", mappingColumn);
  }
  if (format.id === GENERIC_FORMAT.id && wide) form.set("columns", columnMapJson(columnMap));
  form.set("dryRun", dryRun ? "true" : "false");
  form.set("file", file, file.name);
  return form;
}

/** The label set's name and its citation. */
function NameAndCitationFields({
  name,
  setName,
  citation,
  setCitation,
}: {
  name: string;
  setName: (name: string) => void;
  citation: string;
  setCitation: (citation: string) => void;
}) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Name
        <input
          className="rounded-md border border-slate-300 px-2 py-1"
          value={name}
          data-testid="label-set-name"
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <label className="flex flex-col gap-1">
        Citation
        <input
          className="w-72 rounded-md border border-slate-300 px-2 py-1"
          value={citation}
          onChange={(e) => setCitation(e.target.value)}
        />
      </label>
    </>
  );
}

/**
 * Imports a label file of a task's own format (the registered tasks' declarations), or a generic CSV/JSONL
 * label file, as a label set: a dry run shows what would be created and every cell read other than as
 * written or skipped; only then can it be imported. Lists the stored label sets.
 */
export function LabelSetPanel({ projectId }: { projectId: string }) {
  const catalogue = useTaskCatalogue();
  const [formats] = useState(() => [...taskLabelSetFormatDeclarations(catalogue), GENERIC_FORMAT]);
  const [initialFormat] = useState(() => formats.find((f) => f.isDefault) ?? formats[0]!);
  const [formatId, setFormatId] = useState(initialFormat.id);
  const format = formats.find((f) => f.id === formatId) ?? GENERIC_FORMAT;
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState(initialFormat.defaultName);
  const [citation, setCitation] = useState("");
  const [match, setMatch] = useState<"file_name" | "column">("file_name");
  const [mappingColumn, setMappingColumn] = useState("");
  /** A generic file in the wide layout: one column per criterion, mapped below. */
  const [wide, setWide] = useState(false);
  const [columnMap, setColumnMap] = useState<ColumnMapState>(NEW_COLUMN_MAP);
  const { labelSets, headers, plan, setPlan, message, busy, send: sendForm, remove } = useLabelSetRequests(projectId);

  async function send(dryRun: boolean) {
    if (!file) return;
    const form = labelSetRequestForm({ format, file, name, citation, match, mappingColumn, wide, columnMap, dryRun });
    await sendForm(form, () => setFile(null));
  }

  const changed = () => setPlan(null);
  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="label-set-panel"
    >
      <h2 className="text-base font-semibold text-slate-800">Label sets (published human labels)</h2>
      <LabelSetHelp formats={formats} />
      <div className="flex flex-wrap items-end gap-3">
        <FormatField
          formats={formats}
          formatId={format.id}
          onChange={(id) => (setFormatId(id), setFile(null), changed())}
        />
        <FilePicker
          key={format.id}
          label={format.fileLabel}
          accept={format.accept}
          file={file}
          testId="label-set-file"
          onChange={(picked) => (setFile(picked), changed())}
        />
        <NameAndCitationFields
          name={name}
          setName={(value) => (setName(value), changed())}
          citation={citation}
          setCitation={setCitation}
        />
        {format.matchVideos && (
          <MatchVideosFields
            fileNameColumn={format.matchVideos.fileNameColumn}
            match={match}
            setMatch={(value) => (setMatch(value), changed())}
            mappingColumn={mappingColumn}
            setMappingColumn={(value) => (setMappingColumn(value), changed())}
            headers={plan?.headers}
          />
        )}
        {format.id === GENERIC_FORMAT.id && (
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={wide}
              data-testid="label-set-wide"
              onChange={(e) => (setWide(e.target.checked), changed())}
            />
            one column per criterion
          </label>
        )}
        <button type="button" className={buttonClass("secondary")} disabled={!file || busy} onClick={() => send(true)}>
          Dry run
        </button>
        <button type="button" className={buttonClass()} disabled={!plan || busy} onClick={() => send(false)}>
          Import
        </button>
      </div>
      {format.id === GENERIC_FORMAT.id && wide && (
        <ColumnMapEditor
          map={columnMap}
          onChange={(map) => (setColumnMap(map), changed())}
          choices={labelTargetChoices(catalogue.tasks)}
          headers={headers}
        />
      )}
      {message && (
        <p className="text-slate-700" role="status" data-testid="label-set-message">
          {message}
        </p>
      )}
      {plan && <LabelSetPlanView plan={plan} lineWord={format.id === GENERIC_FORMAT.id ? "line" : "row"} />}
      {labelSets.data && labelSets.data.length > 0 && (
        <LabelSetList labelSets={labelSets.data} busy={busy} onDelete={(id) => void remove(id)} />
      )}
    </section>
  );
}

/** How the rows find their videos: by the file-name column the format names, or by a column the user names. */
function MatchVideosFields({
  fileNameColumn,
  match,
  setMatch,
  mappingColumn,
  setMappingColumn,
  headers,
}: {
  fileNameColumn: string;
  match: "file_name" | "column";
  setMatch: (match: "file_name" | "column") => void;
  mappingColumn: string;
  setMappingColumn: (column: string) => void;
  headers: readonly string[] | undefined;
}) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Match videos
        <select
          className="rounded-md border border-slate-300 px-2 py-1"
          value={match}
          aria-label="Match videos"
          onChange={(e) => setMatch(e.target.value as "file_name" | "column")}
        >
          <option value="file_name">by file name ({fileNameColumn})</option>
          <option value="column">by a mapping column</option>
        </select>
      </label>
      {match === "column" && (
        <label className="flex flex-col gap-1">
          Mapping column
          <input
            className="rounded-md border border-slate-300 px-2 py-1"
            value={mappingColumn}
            list="label-set-headers"
            onChange={(e) => setMappingColumn(e.target.value)}
          />
          <datalist id="label-set-headers">
            {headers?.map((h) => (
              <option key={h} value={h} />
            ))}
          </datalist>
        </label>
      )}
    </>
  );
}

function FormatField({
  formats,
  formatId,
  onChange,
}: {
  formats: readonly LabelSetFormatDeclaration[];
  formatId: string;
  onChange: (formatId: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1">
      Format
      <select
        className="rounded-md border border-slate-300 px-2 py-1"
        value={formatId}
        aria-label="Label file format"
        data-testid="label-set-format"
        onChange={(e) => onChange(e.target.value)}
      >
        {formats.map((f) => (
          <option key={f.id} value={f.id}>
            {f.label}
          </option>
        ))}
      </select>
    </label>
  );
}
