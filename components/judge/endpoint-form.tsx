"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch, postJson } from "@/lib/api-client";
import type { EndpointCapabilities } from "@/lib/judge/endpoints/endpoint-capabilities";
import type { EndpointInput, EndpointUpdate } from "@/lib/judge/endpoints/endpoint-input.validation";
import { DEFAULT_INPUT_MODE, inputModeOf, type InputMode } from "@/lib/judge/input-modes";
import { EMPTY_TOKEN_RULE, TokenRuleFields, tokenRuleFormOf, tokenRuleOf } from "./token-rule-fields";
import { InputModeField } from "./endpoint-input-mode";

const field = "rounded-md border border-slate-300 px-2 py-1.5 text-sm";

/** An endpoint as the Judge page lists it (never its key: only whether one is stored). */
export interface EndpointRow {
  id: string;
  name: string;
  baseUrl: string;
  model: string;
  hasApiKey: boolean;
  imageDetail: string;
  temperature: number | null;
  maxConcurrency: number;
  requestsPerMinute: number | null;
  timeoutSeconds: number;
  structuredOutput: boolean;
  pricePer1kInput: number | null;
  pricePer1kOutput: number | null;
  supportsBatchApi: boolean;
  maxTokens: number | null;
  apiVersion: string | null;
  sendImageDetail: boolean;
  /** What the last Test's probe found; null: never probed. */
  capabilities: EndpointCapabilities | null;
  probedAt: string | null;
  requestLogprobs: boolean;
  topLogprobs: number;
  /** How judge calls show a video (lib/judge/input-modes.ts). */
  inputMode: string;
  /** The endpoint's own token rule for cost estimates; null: the provider's default. */
  tokenRule?: unknown;
  archivedAt: string | null;
}

type ImageDetail = NonNullable<EndpointInput["imageDetail"]>;
const IMAGE_DETAILS: readonly ImageDetail[] = ["low", "high", "auto"];
/** A stored or picked detail as the request schema types it. */
const imageDetailOf = (value: string): ImageDetail => IMAGE_DETAILS.find((detail) => detail === value) ?? "auto";

const EMPTY_FORM = {
  name: "",
  baseUrl: "https://api.openai.com/v1",
  model: "gpt-4o",
  apiKey: "",
  removeApiKey: false,
  imageDetail: "auto" as ImageDetail,
  temperature: "0",
  maxConcurrency: "4",
  requestsPerMinute: "",
  timeoutSeconds: "120",
  pricePer1kInput: "",
  pricePer1kOutput: "",
  structuredOutput: true,
  supportsBatchApi: false,
  maxTokens: "",
  apiVersion: "",
  sendImageDetail: true,
  requestLogprobs: false,
  topLogprobs: "5",
  inputMode: DEFAULT_INPUT_MODE as InputMode,
  tokenRule: EMPTY_TOKEN_RULE,
};
type FormState = typeof EMPTY_FORM;

const text = (value: number | null) => (value === null ? "" : String(value));

/** The origin (scheme, host, port) a base URL reaches; null while it is not a URL yet. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The server keeps a stored key only while the endpoint stays on its origin (lib/judge/endpoints/endpoints.ts updateEndpoint). */
function dropsStoredKey(endpoint: EndpointRow | undefined, form: FormState): boolean {
  if (!endpoint?.hasApiKey || form.apiKey || form.removeApiKey) return false;
  const origin = originOf(form.baseUrl);
  return origin !== null && origin !== originOf(endpoint.baseUrl);
}

function formOf(endpoint: EndpointRow): FormState {
  return {
    name: endpoint.name,
    baseUrl: endpoint.baseUrl,
    model: endpoint.model,
    apiKey: "",
    removeApiKey: false,
    imageDetail: imageDetailOf(endpoint.imageDetail),
    temperature: text(endpoint.temperature),
    maxConcurrency: String(endpoint.maxConcurrency),
    requestsPerMinute: text(endpoint.requestsPerMinute),
    timeoutSeconds: String(endpoint.timeoutSeconds),
    pricePer1kInput: text(endpoint.pricePer1kInput),
    pricePer1kOutput: text(endpoint.pricePer1kOutput),
    structuredOutput: endpoint.structuredOutput,
    supportsBatchApi: endpoint.supportsBatchApi,
    maxTokens: text(endpoint.maxTokens),
    apiVersion: endpoint.apiVersion ?? "",
    sendImageDetail: endpoint.sendImageDetail,
    requestLogprobs: endpoint.requestLogprobs,
    topLogprobs: String(endpoint.topLogprobs),
    inputMode: inputModeOf(endpoint.inputMode),
    tokenRule: tokenRuleFormOf(endpoint.tokenRule ?? null),
  };
}

/**
 * Owners add an OpenAI-compatible endpoint, or (with `endpoint`) change one. The key goes to the server
 * once and never comes back; when editing, a blank key keeps the stored one. After *Add* the form is
 * empty again, ready for the next endpoint.
 */
export function EndpointForm({
  projectId,
  endpoint,
  onDone,
}: {
  projectId: string;
  endpoint?: EndpointRow;
  onDone?: () => void;
}) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [form, setForm] = useState<FormState>(() => (endpoint ? formOf(endpoint) : EMPTY_FORM));
  const set = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));
  const save = useMutation({
    mutationFn: () => {
      const body = requestBodyOf(form);
      if (!endpoint)
        return postJson(`/api/v1/projects/${projectId}/endpoints`, {
          ...body,
          apiKey: form.apiKey || null,
        } satisfies EndpointInput);
      // Editing: a typed key replaces the stored one, "remove" clears it, a blank field keeps it.
      const apiKey = form.removeApiKey ? { apiKey: "" } : form.apiKey ? { apiKey: form.apiKey } : {};
      return apiFetch(`/api/v1/endpoints/${encodeURIComponent(endpoint.id)}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...body, ...apiKey } satisfies EndpointUpdate),
      });
    },
    onSuccess: () => {
      if (!endpoint) setForm(EMPTY_FORM);
      void refetchAfterWrite(queryClient, ["endpoints", projectId]);
      router.refresh(); // the endpoint list beside the form is rendered on the server
      onDone?.();
    },
  });
  const idPrefix = endpoint ? `endpoint-edit-${endpoint.id}` : "endpoint-new";
  return (
    <form
      className="grid grid-cols-2 gap-2 text-sm"
      data-testid={endpoint ? "endpoint-edit-form" : "endpoint-form"}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <ConnectionFields form={form} set={set} endpoint={endpoint} idPrefix={idPrefix} />
      <RequestFields form={form} set={set} />
      <RequestOptions form={form} set={set} />
      <InputModeField
        value={form.inputMode}
        onChange={(inputMode) => set({ inputMode })}
        capabilities={endpoint?.capabilities ?? null}
      />
      <TokenRuleFields value={form.tokenRule} onChange={(tokenRule) => set({ tokenRule })} />
      <div className="col-span-2 flex gap-2">
        <button className={buttonClass()} disabled={save.isPending}>
          {endpoint ? "Save changes" : "Add endpoint"}
        </button>
        {endpoint && (
          <button type="button" className={buttonClass("secondary")} onClick={() => onDone?.()}>
            Cancel
          </button>
        )}
      </div>
      {save.error && (
        <p role="alert" className="col-span-2 text-red-700">
          {save.error.message}
        </p>
      )}
    </form>
  );
}

/** The fields every save sends (not the key: adding and editing send it differently). */
function requestBodyOf(form: FormState) {
  const num = (v: string) => (v.trim() === "" ? null : Number(v));
  return {
    name: form.name,
    baseUrl: form.baseUrl,
    model: form.model,
    imageDetail: form.imageDetail,
    temperature: num(form.temperature),
    maxConcurrency: Number(form.maxConcurrency),
    requestsPerMinute: num(form.requestsPerMinute),
    timeoutSeconds: Number(form.timeoutSeconds),
    pricePer1kInput: num(form.pricePer1kInput),
    pricePer1kOutput: num(form.pricePer1kOutput),
    structuredOutput: form.structuredOutput,
    supportsBatchApi: form.supportsBatchApi,
    maxTokens: num(form.maxTokens),
    apiVersion: form.apiVersion.trim() || null,
    sendImageDetail: form.sendImageDetail,
    requestLogprobs: form.requestLogprobs,
    topLogprobs: Number(form.topLogprobs),
    inputMode: form.inputMode,
    tokenRule: tokenRuleOf(form.tokenRule),
  } satisfies EndpointUpdate;
}

/** Where the endpoint is and how it is reached: name, base URL, model and key. */
function ConnectionFields({
  form,
  set,
  endpoint,
  idPrefix,
}: {
  form: FormState;
  set: (patch: Partial<FormState>) => void;
  endpoint?: EndpointRow;
  idPrefix: string;
}) {
  return (
    <>
      <label className="col-span-2 flex flex-col gap-1">
        Name <input className={field} required value={form.name} onChange={(e) => set({ name: e.target.value })} />
      </label>
      <label className="col-span-2 flex flex-col gap-1">
        Base URL{" "}
        <input className={field} required value={form.baseUrl} onChange={(e) => set({ baseUrl: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1">
        Model <input className={field} required value={form.model} onChange={(e) => set({ model: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1">
        API key
        <input
          className={field}
          type="password"
          autoComplete="off"
          placeholder={endpoint?.hasApiKey ? "stored: blank keeps it" : undefined}
          value={form.apiKey}
          disabled={form.removeApiKey}
          onChange={(e) => set({ apiKey: e.target.value })}
        />
      </label>
      {dropsStoredKey(endpoint, form) && (
        <p className="col-span-2 text-amber-800" data-testid="endpoint-key-dropped">
          The base URL is on another server: saving drops the stored key, so it is never sent there. Type the key again
          to keep one.
        </p>
      )}
      {endpoint?.hasApiKey && (
        <label className="col-span-2 flex items-center gap-2">
          <input
            type="checkbox"
            id={`${idPrefix}-remove-key`}
            checked={form.removeApiKey}
            onChange={(e) => set({ removeApiKey: e.target.checked, apiKey: "" })}
          />{" "}
          Remove the stored key
        </label>
      )}
    </>
  );
}

/** How each request is made and priced: image detail, temperature, limits, timeout, prices, tokens, api-version. */
function RequestFields({ form, set }: { form: FormState; set: (patch: Partial<FormState>) => void }) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Image detail
        <select
          className={field}
          value={form.imageDetail}
          onChange={(e) => set({ imageDetail: imageDetailOf(e.target.value) })}
        >
          <option>auto</option>
          <option>low</option>
          <option>high</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Temperature{" "}
        <input className={field} value={form.temperature} onChange={(e) => set({ temperature: e.target.value })} />
      </label>
      <label className="flex flex-col gap-1">
        Max concurrency{" "}
        <input
          className={field}
          value={form.maxConcurrency}
          onChange={(e) => set({ maxConcurrency: e.target.value })}
        />
      </label>
      <label className="flex flex-col gap-1">
        Requests / minute{" "}
        <input
          className={field}
          placeholder="no limit"
          value={form.requestsPerMinute}
          onChange={(e) => set({ requestsPerMinute: e.target.value })}
        />
      </label>
      <label className="flex flex-col gap-1">
        Timeout (seconds){" "}
        <input
          className={field}
          value={form.timeoutSeconds}
          onChange={(e) => set({ timeoutSeconds: e.target.value })}
        />
      </label>
      <label className="flex flex-col gap-1">
        $ per 1k input tokens{" "}
        <input
          className={field}
          value={form.pricePer1kInput}
          onChange={(e) => set({ pricePer1kInput: e.target.value })}
        />
      </label>
      <label className="flex flex-col gap-1">
        $ per 1k output tokens{" "}
        <input
          className={field}
          value={form.pricePer1kOutput}
          onChange={(e) => set({ pricePer1kOutput: e.target.value })}
        />
      </label>
      <label className="flex flex-col gap-1">
        Max answer tokens
        <input
          className={field}
          placeholder="server default"
          value={form.maxTokens}
          onChange={(e) => set({ maxTokens: e.target.value })}
          data-testid="endpoint-max-tokens"
        />
      </label>
      <label className="flex flex-col gap-1">
        Azure api-version
        <input
          className={field}
          placeholder="not Azure"
          value={form.apiVersion}
          onChange={(e) => set({ apiVersion: e.target.value })}
          data-testid="endpoint-api-version"
        />
      </label>
    </>
  );
}

/** What the endpoint supports and what is asked of it: structured output, image detail, batches, logprobs. */
function RequestOptions({ form, set }: { form: FormState; set: (patch: Partial<FormState>) => void }) {
  return (
    <>
      <label className="col-span-2 flex items-center gap-2">
        <input
          type="checkbox"
          checked={form.structuredOutput}
          onChange={(e) => set({ structuredOutput: e.target.checked })}
        />{" "}
        Ask for JSON-schema structured output
      </label>
      <label className="col-span-2 flex items-center gap-2">
        <input
          type="checkbox"
          checked={form.sendImageDetail}
          onChange={(e) => set({ sendImageDetail: e.target.checked })}
          data-testid="endpoint-send-detail"
        />{" "}
        Send each image&apos;s detail field (untick for servers that reject it)
      </label>
      <label className="col-span-2 flex items-center gap-2">
        <input
          type="checkbox"
          checked={form.supportsBatchApi}
          onChange={(e) => set({ supportsBatchApi: e.target.checked })}
          data-testid="endpoint-batch-api"
        />{" "}
        Supports the Batch API (/v1/files and /v1/batches): runs can be sent as batches, at half the price, answered
        within 24 hours
      </label>
      <label className="col-span-2 flex items-center gap-2">
        <input
          type="checkbox"
          checked={form.requestLogprobs}
          onChange={(e) => set({ requestLogprobs: e.target.checked })}
          data-testid="endpoint-request-logprobs"
        />{" "}
        Request logprobs: store a logprob-weighted (expected) score beside each score, from the top
        <input
          className={`${field} w-16`}
          type="number"
          min={1}
          max={20}
          value={form.topLogprobs}
          onChange={(e) => set({ topLogprobs: e.target.value })}
          aria-label="Alternatives per token (top_logprobs)"
          disabled={!form.requestLogprobs}
        />
        alternatives per token
      </label>
    </>
  );
}
