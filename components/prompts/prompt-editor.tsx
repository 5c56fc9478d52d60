"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/lib/api-client";
import { diffStats, lineDiff } from "@/lib/prompt-versions/line-diff";
import { LineDiffView } from "./line-diff-view";

/** Owners edit a template's whole text (front matter and body) and see the diff against the shipped file as they type. */
export function PromptEditor({
  projectId,
  templateId,
  shippedText,
  startText,
}: {
  projectId: string;
  templateId: string;
  shippedText: string;
  startText: string;
}) {
  const router = useRouter();
  const [text, setText] = useState(startText);
  const [note, setNote] = useState("");
  const diff = useMemo(() => lineDiff(shippedText, text), [shippedText, text]);
  const stats = diffStats(diff);
  const save = useMutation({
    mutationFn: () =>
      postJson<{ id: string; hash: string; created: boolean }>(`/api/v1/projects/${projectId}/prompt-versions`, {
        templateId,
        text,
        note,
      }),
    onSuccess: () => router.refresh(),
  });
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">Template text (front matter and body; placeholders are {"{{name}}"})</span>
        <textarea
          className="h-96 rounded-md border border-slate-300 p-2 font-mono text-xs"
          value={text}
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
          data-testid="prompt-text"
        />
      </label>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <input
          className="min-w-64 flex-1 rounded-md border border-slate-300 px-2 py-1.5"
          placeholder="Note (what changed and why)"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          maxLength={500}
          data-testid="prompt-note"
        />
        <button type="button" className={buttonClass("secondary")} onClick={() => setText(shippedText)}>
          Reset to shipped
        </button>
        <button
          type="submit"
          className={buttonClass()}
          disabled={save.isPending || (stats.added === 0 && stats.removed === 0)}
          data-testid="prompt-save"
        >
          {save.isPending ? "Saving…" : "Save as new version"}
        </button>
      </div>
      {save.isError && (
        <p className="rounded bg-rose-50 px-3 py-2 text-sm text-rose-800" role="alert" data-testid="prompt-error">
          {save.error.message}
        </p>
      )}
      {save.isSuccess && (
        <p className="text-sm text-emerald-800" data-testid="prompt-saved">
          {save.data.created ? "Saved" : "This text is already saved"} as version {save.data.hash.slice(0, 12)}.
        </p>
      )}
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium" data-testid="prompt-diff-stats">
          Against the shipped template: +{stats.added} −{stats.removed} lines
        </span>
        <LineDiffView diff={diff} />
      </div>
    </form>
  );
}
