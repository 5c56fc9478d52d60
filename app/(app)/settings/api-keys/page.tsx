import { requirePageActor } from "@/app/_server/actor";
import { Card } from "@/components/empty-state";
import { ApiKeysPanel } from "./api-keys-panel";

export default async function ApiKeysPage() {
  await requirePageActor();
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">API keys</h1>
      <Card title="Your keys">
        <p className="mb-4 text-sm text-slate-500">
          Send a key as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> to{" "}
          <code className="font-mono">/api/v1/*</code>. It acts with your rights in every project. Only a hash is
          stored.
        </p>
        <ApiKeysPanel />
      </Card>
    </div>
  );
}
