"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type Dispatch, type SetStateAction } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch, postJson } from "@/lib/api-client";
import { WEBHOOK_EVENTS, type WebhookEventId } from "@/lib/webhooks/webhook-events";
import type { WebhookCreate, WebhookUpdate } from "@/lib/webhooks/webhooks.validation";

interface WebhookRow {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  createdAt: string;
  lastDelivery: { status: string; statusCode: number | null; at: string } | null;
}

interface DeliveryRow {
  id: string;
  event: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastResponse: string | null;
  createdAt: string;
}

const small =
  "inline-flex items-center rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100 disabled:opacity-50";
const input = "rounded-md border border-slate-300 px-2 py-1";

/** The project's webhooks on the Settings page (owners): register, enable, test, read the log, redeliver, delete. */
export function WebhooksCard({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const key = ["webhooks", projectId];
  const hooks = useQuery({
    queryKey: key,
    queryFn: () =>
      apiFetch<{ webhooks: WebhookRow[] }>(`/api/v1/projects/${projectId}/webhooks`).then((b) => b.webhooks),
  });
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventId[]>(["run.finished"]);
  const [description, setDescription] = useState("");
  // The signing secret is answered once, at creation or rotation: shown until the owner closes it.
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const create = useMutation({
    mutationFn: () =>
      postJson<WebhookRow & { secret: string }>(`/api/v1/projects/${projectId}/webhooks`, {
        url,
        events,
        description,
      } satisfies WebhookCreate),
    onSuccess: (hook) => {
      setSecret({ url: hook.url, secret: hook.secret });
      setUrl("");
      setDescription("");
      void refetchAfterWrite(queryClient, key);
    },
  });

  return (
    <div className="flex flex-col gap-4 text-sm" data-testid="webhooks">
      <p className="text-slate-600">
        POSTs signed JSON (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>,{" "}
        <code>webhook-signature</code>) when these events happen; failed deliveries are retried with backoff for about 9
        hours.
      </p>
      {secret && <SigningSecretNote secret={secret} onDone={() => setSecret(null)} />}
      {hooks.isError && <p className="text-red-700">{hooks.error.message}</p>}
      <ul className="flex flex-col gap-3" data-testid="webhook-list">
        {hooks.data?.length === 0 && <li className="text-slate-500">No webhooks yet.</li>}
        {hooks.data?.map((hook) => (
          <WebhookItem
            key={hook.id}
            hook={hook}
            onChanged={() => void refetchAfterWrite(queryClient, key)}
            onSecret={(value) => setSecret({ url: hook.url, secret: value })}
          />
        ))}
      </ul>
      <form
        className="flex flex-col gap-2 border-t border-slate-100 pt-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <label className="flex flex-col gap-1">
          <span className="font-medium">Receiver URL</span>
          <input
            className={input}
            type="url"
            required
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://ci.example.org/framejury"
            data-testid="webhook-url"
          />
        </label>
        <EventsFieldset events={events} setEvents={setEvents} />
        <label className="flex flex-col gap-1">
          <span className="font-medium">Description (optional)</span>
          <input
            className={input}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            maxLength={500}
          />
        </label>
        {create.isError && (
          <p className="text-red-700" role="alert">
            {create.error.message}
          </p>
        )}
        <button
          type="submit"
          className={`${buttonClass()} self-start`}
          disabled={create.isPending || events.length === 0}
        >
          Add webhook
        </button>
      </form>
    </div>
  );
}

/** The signing secret, answered once (at creation or rotation): shown until the owner says it is copied. */
function SigningSecretNote({ secret, onDone }: { secret: { url: string; secret: string }; onDone: () => void }) {
  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 p-2" data-testid="webhook-secret">
      Signing secret for {secret.url} — copy it now, it is not shown again:
      <code className="mt-1 block break-all font-mono text-xs">{secret.secret}</code>
      <button type="button" className={`${small} mt-1`} onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/** The events the webhook is sent for, each a checkbox. */
function EventsFieldset({
  events,
  setEvents,
}: {
  events: WebhookEventId[];
  setEvents: Dispatch<SetStateAction<WebhookEventId[]>>;
}) {
  return (
    <fieldset className="flex flex-wrap gap-3">
      <legend className="mb-1 font-medium">Events</legend>
      {WEBHOOK_EVENTS.map((event) => (
        <label key={event.id} className="flex items-center gap-1" title={event.description}>
          <input
            type="checkbox"
            checked={events.includes(event.id)}
            onChange={(e) =>
              setEvents((old) => (e.target.checked ? [...old, event.id] : old.filter((id) => id !== event.id)))
            }
          />
          {event.label}
        </label>
      ))}
    </fieldset>
  );
}

function WebhookItem({
  hook,
  onChanged,
  onSecret,
}: {
  hook: WebhookRow;
  onChanged: () => void;
  onSecret: (secret: string) => void;
}) {
  const [showLog, setShowLog] = useState(false);
  const base = `/api/v1/webhooks/${encodeURIComponent(hook.id)}`;
  const patch = useMutation({
    mutationFn: (body: WebhookUpdate) =>
      apiFetch<{ secret?: string }>(base, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    onSuccess: (answer) => {
      if (answer.secret) onSecret(answer.secret);
      onChanged();
    },
  });
  const remove = useMutation({ mutationFn: () => apiFetch(base, { method: "DELETE" }), onSuccess: onChanged });
  const ping = useMutation({ mutationFn: () => postJson(`${base}/ping`, {}), onSuccess: () => setShowLog(true) });
  const error = patch.error ?? remove.error ?? ping.error;
  return (
    <li data-testid="webhook-item" className={hook.enabled ? undefined : "text-slate-500"}>
      <span className="font-mono text-xs break-all">{hook.url}</span>
      {!hook.enabled && <span className="ml-1 rounded bg-slate-100 px-1.5 text-xs text-slate-600">disabled</span>}
      <div className="text-xs text-slate-600">
        {hook.events.join(", ")}
        {hook.description && ` · ${hook.description}`}
        {hook.lastDelivery &&
          ` · last delivery ${hook.lastDelivery.status}${hook.lastDelivery.statusCode ? ` (${hook.lastDelivery.statusCode})` : ""}`}
      </div>
      <div className="mt-1 flex flex-wrap gap-2">
        <button type="button" className={small} onClick={() => ping.mutate()} disabled={ping.isPending}>
          Send test
        </button>
        <button type="button" className={small} onClick={() => setShowLog((v) => !v)}>
          {showLog ? "Hide deliveries" : "Deliveries"}
        </button>
        <button
          type="button"
          className={small}
          onClick={() => patch.mutate({ enabled: !hook.enabled })}
          disabled={patch.isPending}
        >
          {hook.enabled ? "Disable" : "Enable"}
        </button>
        <button
          type="button"
          className={small}
          onClick={() => patch.mutate({ rotateSecret: true })}
          disabled={patch.isPending}
        >
          New secret
        </button>
        <button
          type="button"
          className={small}
          onClick={() => confirm(`Delete the webhook to ${hook.url} and its delivery log?`) && remove.mutate()}
          disabled={remove.isPending}
        >
          Delete
        </button>
      </div>
      {error && (
        <p className="text-xs text-red-700" role="alert">
          {error.message}
        </p>
      )}
      {showLog && <DeliveryLog webhookId={hook.id} />}
    </li>
  );
}

function DeliveryLog({ webhookId }: { webhookId: string }) {
  const base = `/api/v1/webhooks/${encodeURIComponent(webhookId)}`;
  const log = useQuery({
    queryKey: ["webhook-deliveries", webhookId],
    queryFn: () => apiFetch<{ deliveries: DeliveryRow[] }>(`${base}/deliveries?limit=20`).then((b) => b.deliveries),
    // A pending delivery changes within seconds: the log follows it while it is open.
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === "pending") ? 2000 : false),
  });
  const redeliver = useMutation({
    mutationFn: (id: string) => postJson(`${base}/deliveries/${encodeURIComponent(id)}/redeliver`, {}),
    onSuccess: () => void log.refetch(),
  });
  if (log.isPending) return <p className="text-xs text-slate-500">Loading deliveries…</p>;
  if (log.isError) return <p className="text-xs text-red-700">{log.error.message}</p>;
  if (log.data.length === 0) return <p className="text-xs text-slate-500">No deliveries yet.</p>;
  return (
    <table className="mt-2 w-full text-left text-xs" data-testid="webhook-deliveries">
      <thead className="text-slate-500">
        <tr>
          <th className="pr-2 font-normal">Event</th>
          <th className="pr-2 font-normal">Status</th>
          <th className="pr-2 font-normal">Attempts</th>
          <th className="pr-2 font-normal">Last answer</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {log.data.map((d) => (
          <tr key={d.id} data-testid="webhook-delivery" data-status={d.status} className="align-top">
            <td className="pr-2">
              {d.event}
              <div className="text-slate-500">{new Date(d.createdAt).toLocaleString()}</div>
            </td>
            <td className="pr-2">
              {d.status}
              {d.nextAttemptAt && (
                <div className="text-slate-500">next {new Date(d.nextAttemptAt).toLocaleTimeString()}</div>
              )}
            </td>
            <td className="pr-2">{d.attempts}</td>
            <td className="max-w-xs pr-2 break-all">
              {d.lastStatusCode ?? "—"}{" "}
              {d.lastResponse && <span className="text-slate-500">{d.lastResponse.slice(0, 200)}</span>}
            </td>
            <td>
              {d.status !== "pending" && (
                <button
                  type="button"
                  className={small}
                  onClick={() => redeliver.mutate(d.id)}
                  disabled={redeliver.isPending}
                >
                  Redeliver
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
