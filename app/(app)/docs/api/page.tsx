import Link from "next/link";
import { requirePageActor } from "@/app/_server/actor";
import { openApiDocument } from "@/lib/api/openapi/document";
import { apiReference, codeSpans, type ReferenceOperation } from "@/lib/api/openapi/reference";
import { documentedRoutes } from "@/app/api/v1/documented-routes";

const METHOD_COLOURS: Record<string, string> = {
  GET: "bg-sky-100 text-sky-800",
  POST: "bg-emerald-100 text-emerald-800",
  PUT: "bg-amber-100 text-amber-800",
  PATCH: "bg-violet-100 text-violet-800",
  DELETE: "bg-red-100 text-red-800",
};

/** The HTTP API reference, rendered from the same OpenAPI document /api/v1/openapi.json serves. */
export default async function ApiReferencePage() {
  await requirePageActor();
  const groups = apiReference(openApiDocument(documentedRoutes));
  const count = groups.reduce((sum, group) => sum + group.operations.length, 0);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">HTTP API reference</h1>
        <p className="mt-2 max-w-3xl text-sm text-slate-600">
          {count} operations of <code className="font-mono">/api/v1</code>, generated from the zod schemas the routes validate with. Scripts send an{" "}
          <Link href="/settings/api-keys" className="text-sky-700 underline">
            API key
          </Link>{" "}
          as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>; errors are{" "}
          <code className="font-mono">{'{"error": {"code", "message", "details"?}}'}</code>. The machine-readable OpenAPI 3.1 document is at{" "}
          <a href="/api/v1/openapi.json" className="font-mono text-sky-700 underline" data-testid="openapi-json-link">
            /api/v1/openapi.json
          </a>
          . Not listed: the sign-in routes under <code className="font-mono">/api/auth</code>, <code className="font-mono">/api/health</code> and{" "}
          <code className="font-mono">/api/metrics</code>.
        </p>
      </div>
      <nav aria-label="API sections" className="flex flex-wrap gap-2 text-sm">
        {groups.map((group) => (
          <a key={group.tag} href={`#tag-${group.tag}`} className="rounded border border-slate-200 bg-white px-2 py-0.5 text-slate-700 hover:bg-slate-50">
            {group.tag}
          </a>
        ))}
      </nav>
      {groups.map((group) => (
        <section key={group.tag} id={`tag-${group.tag}`} className="flex flex-col gap-3">
          <h2 className="text-lg font-semibold text-slate-800">{group.tag}</h2>
          {group.operations.map((operation) => (
            <OperationCard key={operation.id} operation={operation} />
          ))}
        </section>
      ))}
    </div>
  );
}

function OperationCard({ operation }: { operation: ReferenceOperation }) {
  return (
    <article id={operation.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="api-operation">
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded px-1.5 py-0.5 font-mono text-xs font-semibold ${METHOD_COLOURS[operation.method] ?? "bg-slate-100 text-slate-700"}`}>{operation.method}</span>
        <code className="font-mono text-sm break-all text-slate-900">{operation.path}</code>
        {operation.public && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">no auth</span>}
      </div>
      <p className="mt-2 text-sm text-slate-800">
        <WithCode text={operation.summary} />
      </p>
      {operation.description && (
        <p className="mt-1 text-sm text-slate-500">
          <WithCode text={operation.description} />
        </p>
      )}
      {operation.parameters.length > 0 && (
        <table className="mt-3 w-full text-left text-sm">
          <thead className="text-xs text-slate-500">
            <tr>
              <th className="py-1 pr-3 font-medium">parameter</th>
              <th className="py-1 pr-3 font-medium">in</th>
              <th className="py-1 font-medium">schema</th>
            </tr>
          </thead>
          <tbody>
            {operation.parameters.map((parameter) => (
              <tr key={`${parameter.in}-${parameter.name}`} className="border-t border-slate-100 align-top">
                <td className="py-1 pr-3 font-mono text-slate-900">
                  {parameter.name}
                  {parameter.required ? "" : "?"}
                </td>
                <td className="py-1 pr-3 text-slate-500">{parameter.in}</td>
                <td className="py-1 text-slate-700">
                  <code className="font-mono text-xs break-all">{parameter.type}</code>
                  {parameter.description && (
                    <span className="ml-2 text-slate-500">
                      <WithCode text={parameter.description} />
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {operation.body && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-slate-700">
            Request body: <code className="font-mono">{operation.body.contentType}</code>
            {operation.body.required ? "" : " (optional)"}
          </summary>
          <pre tabIndex={0} className="mt-2 max-h-96 overflow-auto rounded bg-slate-50 p-3 font-mono text-xs text-slate-800">{operation.body.schema}</pre>
        </details>
      )}
      <ul className="mt-3 flex flex-col gap-0.5 text-sm">
        {operation.responses.map((response) => (
          <li key={response.status} className="text-slate-600">
            <span className="font-mono font-semibold text-slate-800">{response.status}</span> <WithCode text={response.description} />
            {response.contentTypes.length > 0 && <span className="ml-1 font-mono text-xs text-slate-500">({response.contentTypes.join(", ")})</span>}
          </li>
        ))}
      </ul>
    </article>
  );
}

/** A route's description text with its `backticked` parts as inline code. */
function WithCode({ text }: { text: string }) {
  return (
    <>
      {codeSpans(text).map((span, i) =>
        span.code ? (
          <code key={i} className="rounded bg-slate-100 px-1 font-mono text-xs text-slate-800" data-testid="api-inline-code">
            {span.text}
          </code>
        ) : (
          span.text
        ),
      )}
    </>
  );
}
