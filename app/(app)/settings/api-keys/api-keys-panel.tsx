"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

async function api<T>(input: string, init?: RequestInit): Promise<T> {
  const response = await fetch(input, { ...init, headers: { "content-type": "application/json", ...init?.headers } });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `Request failed (${response.status}).`);
  }
  return (response.status === 204 ? null : await response.json()) as T;
}

export function ApiKeysPanel() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const keys = useQuery({
    queryKey: ["api-keys"],
    queryFn: () => api<{ apiKeys: ApiKeyRow[] }>("/api/v1/me/api-keys").then((body) => body.apiKeys),
  });
  const create = useMutation({
    mutationFn: (keyName: string) =>
      api<{ name: string; key: string }>("/api/v1/me/api-keys", {
        method: "POST",
        body: JSON.stringify({ name: keyName }),
      }),
    onSuccess: (result) => {
      setCreated(result);
      setName("");
      void refetchAfterWrite(queryClient, ["api-keys"]);
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api<null>(`/api/v1/me/api-keys/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => refetchAfterWrite(queryClient, ["api-keys"]),
  });

  return (
    <div className="flex flex-col gap-5">
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(name);
        }}
      >
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-slate-700">Name</span>
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            maxLength={100}
            placeholder="e.g. upload script"
            className="rounded-md border border-slate-300 px-2.5 py-1.5 text-sm"
          />
        </label>
        <button type="submit" className={buttonClass()} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>
      {create.error && (
        <p role="alert" className="text-sm text-red-700">
          {create.error.message}
        </p>
      )}
      {created && (
        <div className="rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm" data-testid="new-api-key">
          <p className="mb-1 font-medium">Key “{created.name}” created. Copy it now: it is not shown again.</p>
          <code className="block break-all rounded bg-white px-2 py-1 font-mono text-xs">{created.key}</code>
        </div>
      )}
      {keys.isPending && <p className="text-sm text-slate-500">Loading…</p>}
      {keys.error && (
        <p role="alert" className="text-sm text-red-700">
          {keys.error.message}
        </p>
      )}
      {keys.data && keys.data.length === 0 && <p className="text-sm text-slate-500">No API keys yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <ApiKeysTable keys={keys.data} revoking={revoke.isPending} onRevoke={(id) => revoke.mutate(id)} />
      )}
    </div>
  );
}

/** The caller's keys: name, prefix, when created and last used, and a Revoke button each. */
function ApiKeysTable({
  keys,
  revoking,
  onRevoke,
}: {
  keys: ApiKeyRow[];
  revoking: boolean;
  onRevoke: (id: string) => void;
}) {
  return (
    <table className="w-full text-left text-sm">
      <thead className="text-xs uppercase text-slate-500">
        <tr>
          <th className="py-1">Name</th>
          <th>Key</th>
          <th>Created</th>
          <th>Last used</th>
          <th />
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {keys.map((key) => (
          <tr key={key.id}>
            <td className="py-2">{key.name}</td>
            <td className="font-mono text-xs">{key.prefix}…</td>
            <td>{new Date(key.createdAt).toLocaleString()}</td>
            <td>{key.lastUsedAt ? new Date(key.lastUsedAt).toLocaleString() : "never"}</td>
            <td className="text-right">
              <button
                type="button"
                className={buttonClass("danger")}
                disabled={revoking}
                onClick={() => onRevoke(key.id)}
              >
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
