"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/lib/api-client";

const input = "rounded-md border border-slate-300 px-2 py-1.5";

/** The body POST /api/v1/projects/{projectId}/pair-sets reads, from the form's fields. */
export function newPairSetBody(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const number = (name: string) => (text(name) === "" ? undefined : Number(text(name)));
  const prompts = text("prompts")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return {
    name: text("name"),
    prompts: prompts.length ? prompts : "all",
    design: text("design"),
    ...(text("design") === "k_per_prompt" ? { k: number("k") } : {}),
    sample: text("sample"),
    ...(number("seed") === undefined ? {} : { seed: number("seed") }),
    reviewersPerPair: number("reviewersPerPair") ?? 1,
    blind: form.get("blind") === "on",
    ...(number("honeypots") ? { honeypots: number("honeypots") } : {}),
  };
}

/**
 * A new pair set made from the project's videos (owners): a prompt list or every prompt with videos of two
 * generators, the design, the sample index, the reviewers per pair, blind, and honeypots; the server says what is wrong.
 */
export function NewPairSetForm({ projectId }: { projectId: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (form: FormData) =>
      postJson<{ id: string }>(`/api/v1/projects/${projectId}/pair-sets`, newPairSetBody(form)),
    onSuccess: ({ id }) => router.push(`/projects/${projectId}/pairs/${id}`),
    onError: (e) => setError(e.message),
  });
  return (
    <form
      className="flex flex-col gap-3 text-sm"
      data-testid="new-pair-set-form"
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        create.mutate(new FormData(event.currentTarget));
      }}
    >
      <label className="flex flex-col gap-1">
        Name
        <input name="name" required maxLength={200} className={input} />
      </label>
      <label className="flex flex-col gap-1">
        Prompts (one per line; empty: every prompt with videos of at least two generators)
        <textarea name="prompts" rows={3} className={input} />
      </label>
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1">
          Design
          <select name="design" defaultValue="all_pairs" className={input}>
            <option value="all_pairs">All generator pairs</option>
            <option value="round_robin">Balanced round robin</option>
            <option value="k_per_prompt">K pairs per prompt</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          K
          <input name="k" type="number" min={1} max={1000} defaultValue={3} className={`${input} w-20`} />
        </label>
        <label className="flex flex-col gap-1">
          Sample
          <select name="sample" defaultValue="same" className={input}>
            <option value="same">The same sample index</option>
            <option value="random">A random sample</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Seed
          <input name="seed" type="number" min={0} className={`${input} w-24`} />
        </label>
        <label className="flex flex-col gap-1">
          Reviewers per pair
          <input name="reviewersPerPair" type="number" min={1} max={20} defaultValue={1} className={`${input} w-20`} />
        </label>
        <label className="flex flex-col gap-1">
          Honeypot pairs
          <input name="honeypots" type="number" min={0} max={1000} defaultValue={0} className={`${input} w-20`} />
        </label>
      </div>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="blind" defaultChecked /> Blind (reviewers see no generator names)
      </label>
      {error && (
        <p role="alert" className="text-rose-700">
          {error}
        </p>
      )}
      <div>
        <button className={buttonClass()} disabled={create.isPending}>
          Make the pair set
        </button>
      </div>
    </form>
  );
}
