import { HF_DEFAULT_RATIOS } from "@/lib/export/hf-splits.validation";

const input = "rounded-md border border-slate-300 px-2 py-1.5";

/**
 * The Hugging Face dataset with splits (docs/guide/exports.md#splits): a plain GET form to the export route, so
 * the browser saves the streamed .tar itself, as with the export links. The fields of the other split kinds go
 * along empty and the route ignores them.
 */
export function HfSplitExportForm({
  projectId,
  runId,
  metadataFields,
}: {
  projectId: string;
  runId: string;
  metadataFields: string[];
}) {
  return (
    <details className="mt-3 text-sm" data-testid="hf-split-export">
      <summary className="cursor-pointer text-indigo-700">Hugging Face dataset with splits…</summary>
      <form
        method="get"
        action={`/api/v1/projects/${projectId}/export/hf-dataset`}
        className="mt-2 flex flex-col gap-3 rounded-md border border-slate-200 p-3"
      >
        <input type="hidden" name="runId" value={runId} />
        <fieldset className="flex flex-wrap items-end gap-3">
          <legend className="sr-only">Split by</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="split" value="seed" defaultChecked />
            <span>by a seed</span>
          </label>
          <label className="flex flex-col gap-1">
            <span>Seed</span>
            <input name="seed" defaultValue="42" maxLength={100} className={`${input} w-24`} />
          </label>
          {(["train", "validation", "test"] as const).map((name) => (
            <label key={name} className="flex flex-col gap-1">
              <span>{name}</span>
              <input
                name={name}
                type="number"
                min={0}
                max={1}
                step={0.05}
                defaultValue={HF_DEFAULT_RATIOS[name]}
                className={`${input} w-20`}
              />
            </label>
          ))}
        </fieldset>
        <fieldset className="flex flex-wrap items-end gap-3">
          <legend className="sr-only">or by a metadata field</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="split" value="metadata" />
            <span>by a metadata field (one split per value)</span>
          </label>
          <label className="flex flex-col gap-1">
            <span>Field</span>
            <select name="field" className={input} defaultValue={metadataFields[0]}>
              {metadataFields.map((field) => (
                <option key={field} value={field}>
                  {field}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
        <label className="flex items-center gap-2">
          <input type="radio" name="split" value="labelSet" />
          <span>by label set (one split per label set that labels the run&apos;s videos)</span>
        </label>
        <div>
          <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50">
            Download (.tar)
          </button>
        </div>
        <p className="text-xs text-slate-500">
          A seed puts each video, with all its rows, in one of train, validation and test; the same seed splits the same
          way in every export. The shares must add up to 1.
        </p>
      </form>
    </details>
  );
}
