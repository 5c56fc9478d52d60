"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/components/import/api-client";

const field = "rounded-md border border-slate-300 px-2 py-1.5 text-sm";

/** Owners add an OpenAI-compatible endpoint. The key goes to the server once and never comes back. */
export function EndpointForm({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [form, setForm] = useState({
    name: "",
    baseUrl: "https://api.openai.com/v1",
    model: "gpt-4o",
    apiKey: "",
    imageDetail: "auto",
    temperature: "0",
    maxConcurrency: "4",
    requestsPerMinute: "",
    pricePer1kInput: "",
    pricePer1kOutput: "",
    structuredOutput: true,
    supportsBatchApi: false,
  });
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const num = (v: string) => (v.trim() === "" ? null : Number(v));
  const create = useMutation({
    mutationFn: () =>
      postJson(`/api/v1/projects/${projectId}/endpoints`, {
        name: form.name,
        baseUrl: form.baseUrl,
        model: form.model,
        apiKey: form.apiKey || null,
        imageDetail: form.imageDetail,
        temperature: num(form.temperature),
        maxConcurrency: Number(form.maxConcurrency),
        requestsPerMinute: num(form.requestsPerMinute),
        pricePer1kInput: num(form.pricePer1kInput),
        pricePer1kOutput: num(form.pricePer1kOutput),
        structuredOutput: form.structuredOutput,
        supportsBatchApi: form.supportsBatchApi,
      }),
    onSuccess: () => {
      set({ name: "", apiKey: "" });
      void queryClient.invalidateQueries({ queryKey: ["endpoints", projectId] });
      router.refresh(); // the endpoint list beside the form is rendered on the server
    },
  });
  return (
    <form
      className="grid grid-cols-2 gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <label className="col-span-2 flex flex-col gap-1">
        Name <input className={field} required value={form.name} onChange={(e) => set({ name: e.target.value })} />
      </label>
      <label className="col-span-2 flex flex-col gap-1">
        Base URL <input className={field} required value={form.baseUrl} onChange={(e) => set({ baseUrl: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1">
        Model <input className={field} required value={form.model} onChange={(e) => set({ model: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1">
        API key <input className={field} type="password" autoComplete="off" value={form.apiKey} onChange={(e) => set({ apiKey: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1">
        Image detail
        <select className={field} value={form.imageDetail} onChange={(e) => set({ imageDetail: e.target.value })}>
          <option>auto</option>
          <option>low</option>
          <option>high</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Temperature <input className={field} value={form.temperature} onChange={(e) => set({ temperature: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1">
        Max concurrency <input className={field} value={form.maxConcurrency} onChange={(e) => set({ maxConcurrency: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1">
        Requests / minute <input className={field} placeholder="no limit" value={form.requestsPerMinute} onChange={(e) => set({ requestsPerMinute: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1">
        $ per 1k input tokens <input className={field} value={form.pricePer1kInput} onChange={(e) => set({ pricePer1kInput: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1">
        $ per 1k output tokens <input className={field} value={form.pricePer1kOutput} onChange={(e) => set({ pricePer1kOutput: e.target.value })} />
      </label>
      <label className="col-span-2 flex items-center gap-2">
        <input type="checkbox" checked={form.structuredOutput} onChange={(e) => set({ structuredOutput: e.target.checked })} /> Ask for JSON-schema structured output
      </label>
      <label className="col-span-2 flex items-center gap-2">
        <input type="checkbox" checked={form.supportsBatchApi} onChange={(e) => set({ supportsBatchApi: e.target.checked })} data-testid="endpoint-batch-api" /> Supports the Batch API
        (/v1/files and /v1/batches): runs can be sent as batches, at half the price, answered within 24 hours
      </label>
      <div className="col-span-2">
        <button className={buttonClass()} disabled={create.isPending}>
          Add endpoint
        </button>
      </div>
      {create.error && (
        <p role="alert" className="col-span-2 text-red-700">
          {create.error.message}
        </p>
      )}
    </form>
  );
}
