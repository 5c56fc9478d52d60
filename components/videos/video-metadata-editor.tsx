"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch } from "@/lib/api-client";
import type { VideoFields } from "@/lib/videos/video-edits";
import type { VideoEditRequest } from "@/lib/videos/video-edits.validation";

/** The server's shape of a video's editable fields (a type import: nothing of the module reaches the browser). */
export type EditableVideoFields = VideoFields;

export interface VideoEditEntry {
  id: string;
  at: string;
  source: string;
  editorEmail: string | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

const SOURCE_LABEL: Record<string, string> = {
  edit: "edited",
  metadata: "metadata file",
  prompt_list: "prompt list",
  "metadata+prompt_list": "metadata file and prompt list",
};

const shown = (value: unknown) =>
  value === null || value === undefined || value === ""
    ? "—"
    : Array.isArray(value)
      ? value.join(", ") || "—"
      : String(value);

/** `key = value` lines, one extra field each. */
function extraToText(extra: Record<string, unknown>): string {
  return Object.entries(extra)
    .map(([key, value]) => `${key} = ${value === null ? "" : String(value)}`)
    .join("\n");
}

type ExtraInput = NonNullable<VideoEditRequest["extra"]>;

/** Parsed back; a value written as it was shown keeps its type (a number stays a number). */
function textToExtra(
  text: string,
  current: Record<string, unknown>,
): { ok: true; extra: ExtraInput } | { ok: false; error: string } {
  const extra: ExtraInput = {};
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const at = line.indexOf("=");
    if (at <= 0) return { ok: false, error: `Extra fields, line ${index + 1}: write it as "name = value".` };
    const key = line.slice(0, at).trim();
    const value = line.slice(at + 1).trim();
    const was = current[key];
    const shown = typeof was === "string" || typeof was === "number" || typeof was === "boolean" ? was : null;
    extra[key] = value === "" ? null : shown !== null && String(shown) === value ? shown : value;
  }
  return { ok: true, extra };
}

/** The edit form as the PATCH request's body, or why it cannot be sent (extra fields that do not parse, a bad sample index). */
function videoEditRequest(
  form: FormData,
  storedExtra: EditableVideoFields["extra"],
  updatedAt: string,
): { ok: false; error: string } | { ok: true; body: VideoEditRequest } {
  const extra = textToExtra(String(form.get("extra") ?? ""), storedExtra);
  if (!extra.ok) return { ok: false, error: extra.error };
  const sampleText = String(form.get("sampleIndex") ?? "").trim();
  if (sampleText !== "" && !/^\d+$/.test(sampleText))
    return { ok: false, error: "The sample index is a whole number ≥ 0, or empty." };
  return {
    ok: true,
    body: {
      prompt: String(form.get("prompt") ?? ""),
      model: String(form.get("model") ?? ""),
      dimensions: String(form.get("dimensions") ?? "")
        .split(/[,;]/)
        .map((d) => d.trim())
        .filter(Boolean),
      seed: String(form.get("seed") ?? ""),
      sampleIndex: sampleText === "" ? null : Number(sampleText),
      extra: extra.extra,
      expectedUpdatedAt: updatedAt,
    },
  };
}

/**
 * The video's descriptive fields with, for owners, an editor (PATCH /api/v1/videos/:id) and, for
 * everyone, the history of edits. Runs keep the prompt they were created with, so an edit here only
 * changes what later runs judge.
 */
export function VideoMetadataEditor({
  videoId,
  updatedAt,
  fields,
  canEdit,
  history,
}: {
  videoId: string;
  updatedAt: string;
  fields: EditableVideoFields;
  canEdit: boolean;
  history: VideoEditEntry[];
}) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(form: FormData) {
    const request = videoEditRequest(form, fields.extra, updatedAt);
    if (!request.ok) return setError(request.error);
    setSaving(true);
    setError(null);
    try {
      await apiFetch(`/api/v1/videos/${videoId}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request.body),
      });
      setEditing(false);
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div
      className="mt-3 flex flex-col gap-2 border-t border-slate-100 pt-3 text-sm"
      data-testid="video-metadata-editor"
    >
      {!editing && (fields.seed !== null || Object.keys(fields.extra).length > 0) && (
        <ExtraFieldsList seed={fields.seed} extra={fields.extra} />
      )}
      {canEdit && !editing && (
        <div>
          <button
            type="button"
            className={buttonClass("secondary")}
            onClick={() => setEditing(true)}
            data-testid="edit-video-fields"
          >
            Edit prompt and details
          </button>
        </div>
      )}
      {editing && (
        <form action={(form) => void save(form)} className="flex flex-col gap-2" data-testid="video-fields-form">
          <VideoFieldInputs fields={fields} />
          <p className="text-xs text-slate-500">
            Runs already made keep the prompt they judged; new runs use this one.
          </p>
          {error && (
            <p
              role="alert"
              className="rounded-md border border-red-200 bg-red-50 p-2 text-red-800"
              data-testid="edit-error"
            >
              {error}
            </p>
          )}
          <div className="flex gap-2">
            <button type="submit" className={buttonClass()} disabled={saving} data-testid="save-video-fields">
              {saving ? "Saving…" : "Save"}
            </button>
            <button
              type="button"
              className={buttonClass("secondary")}
              onClick={() => setEditing(false)}
              disabled={saving}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
      {history.length > 0 && <EditHistory history={history} />}
    </div>
  );
}

/** The seed and the extra fields, read-only. */
function ExtraFieldsList({ seed, extra }: { seed: EditableVideoFields["seed"]; extra: EditableVideoFields["extra"] }) {
  return (
    <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1" data-testid="video-extra-fields">
      {seed !== null && (
        <>
          <dt className="text-slate-500">Seed</dt>
          <dd className="break-all">{seed}</dd>
        </>
      )}
      {Object.entries(extra).map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="truncate text-slate-500" title={key}>
            {key}
          </dt>
          <dd className="break-all">{shown(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The form's inputs, each starting on the stored value. */
function VideoFieldInputs({ fields }: { fields: EditableVideoFields }) {
  const input = "w-full rounded-md border border-slate-300 px-2 py-1 text-sm";
  return (
    <>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Prompt</span>
        <textarea
          name="prompt"
          defaultValue={fields.prompt ?? ""}
          rows={4}
          maxLength={20000}
          className={input}
          data-testid="edit-prompt"
        />
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Model</span>
        <input
          name="model"
          defaultValue={fields.model ?? ""}
          maxLength={200}
          className={input}
          data-testid="edit-model"
        />
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Dimensions (comma-separated)</span>
        <input
          name="dimensions"
          defaultValue={fields.dimensions.join(", ")}
          className={input}
          data-testid="edit-dimensions"
        />
      </label>
      <div className="grid grid-cols-2 gap-2">
        <label className="flex flex-col gap-1">
          <span className="font-medium">Seed</span>
          <input name="seed" defaultValue={fields.seed ?? ""} maxLength={100} className={input} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Sample index</span>
          <input name="sampleIndex" defaultValue={fields.sampleIndex ?? ""} inputMode="numeric" className={input} />
        </label>
      </div>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Extra fields (one &quot;name = value&quot; a line)</span>
        <textarea
          name="extra"
          defaultValue={extraToText(fields.extra)}
          rows={3}
          className={`${input} font-mono text-xs`}
        />
      </label>
    </>
  );
}

/** Every edit of the fields, newest first: when, by whom, from where, and each field before and after. */
function EditHistory({ history }: { history: VideoEditEntry[] }) {
  return (
    <details data-testid="video-edit-history">
      <summary className="cursor-pointer text-slate-600">
        History ({history.length} change{history.length === 1 ? "" : "s"})
      </summary>
      <ol className="mt-2 flex flex-col gap-2">
        {history.map((entry) => (
          <li key={entry.id} className="rounded border border-slate-100 p-2" data-testid="video-edit">
            <p className="text-xs text-slate-500">
              {entry.at.slice(0, 16).replace("T", " ")} UTC · {entry.editorEmail ?? "a former user"} ·{" "}
              {SOURCE_LABEL[entry.source] ?? entry.source}
            </p>
            <ul className="mt-1 flex flex-col gap-0.5">
              {Object.keys(entry.after).map((field) => (
                <li key={field} className="break-words">
                  <span className="font-medium">{field}</span>:{" "}
                  <del className="text-slate-500">{shown(entry.before[field])}</del> →{" "}
                  <ins className="no-underline">{shown(entry.after[field])}</ins>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </details>
  );
}
