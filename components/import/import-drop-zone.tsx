// The Import page's drop zone: drop files or folders, or choose them; says which files it accepts.
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { filesFromDrop, filesFromInput, type PickedFile } from "./collect-files";
import { taskImportPanels } from "./import-item";

/** "a, b and c". */
const alongWith = (parts: readonly string[]) =>
  parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;

export function ImportDropZone({ onFiles }: { onFiles: (picked: PickedFile[]) => void }) {
  const [dragging, setDragging] = useState(false);
  return (
    <div
      data-testid="drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={async (event) => {
        event.preventDefault();
        setDragging(false);
        onFiles(await filesFromDrop(event.dataTransfer));
      }}
      className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-8 text-center ${dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-white"}`}
    >
      <p className="font-medium text-slate-700">Drop video files or whole folders here</p>
      <p className="text-sm text-slate-500">
        mp4, webm, mov, m4v, mkv · VBench-2.0 layout <code>generator/Dimension/prompt-index.mp4</code> or flat · prompt
        lists (<code>VBench2_full_info.json</code>, <code>meta_info/Dimension.json</code>,{" "}
        <code>VBench2_full_text_info.json</code>, <code>VBench_full_info.json</code>, txt/csv/json/jsonl in a{" "}
        <code>prompt</code> or <code>prompts</code> folder or named <code>*prompt*</code>),{" "}
        {alongWith([
          "a metadata csv/jsonl (named *meta*)",
          ...taskImportPanels().flatMap((panel) => (panel.description ? [panel.description] : [])),
        ])}{" "}
        may come along.
      </p>
      <div className="flex gap-2">
        <label className={buttonClass("secondary")}>
          Choose files
          <input
            type="file"
            multiple
            className="sr-only"
            data-testid="file-input"
            onChange={(e) => onFiles(filesFromInput(e.target.files))}
          />
        </label>
        <label className={buttonClass("secondary")}>
          Choose a folder
          <input
            type="file"
            multiple
            className="sr-only"
            data-testid="folder-input"
            // @ts-expect-error non-standard but supported by every current browser
            webkitdirectory=""
            onChange={(e) => onFiles(filesFromInput(e.target.files))}
          />
        </label>
      </div>
    </div>
  );
}
