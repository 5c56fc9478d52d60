import Link from "next/link";
import type { RubricItemValues } from "@/lib/rubrics/rubric-item-values";

/**
 * The run page's list of a rubric run over items: a row per item with its fields and a column per criterion, a
 * filter (one criterion's value range, text in the fields) and a sort (a criterion or the item's id), all in the
 * page's search params so a filtered list has its own URL.
 */
export function RubricItemValuesTable({
  projectId,
  runId,
  list,
}: {
  projectId: string;
  runId: string;
  list: RubricItemValues;
}) {
  const { criteria, rows, query } = list;
  const base = `/projects/${projectId}/runs/${runId}`;
  const sortHref = (sort: string) => {
    const params = new URLSearchParams();
    if (query.criterion) params.set("itemCriterion", query.criterion);
    if (query.min !== null) params.set("itemMin", String(query.min));
    if (query.max !== null) params.set("itemMax", String(query.max));
    if (query.text) params.set("itemText", query.text);
    params.set("itemSort", sort);
    params.set("itemDir", query.sort === sort && query.dir === "asc" ? "desc" : "asc");
    return `${base}?${params.toString()}#items`;
  };
  const arrow = (sort: string) => (query.sort === sort ? (query.dir === "asc" ? " ▲" : " ▼") : "");
  return (
    <section id="items" className="flex flex-col gap-2" data-testid="rubric-item-values">
      <h2 className="text-lg font-semibold">Items</h2>
      <ItemValuesFilter list={list} action={`${base}#items`} />
      <p className="text-xs text-slate-500">
        A label&apos;s value is its position in the criterion&apos;s list (from 0); yes is 1, no 0.
      </p>
      <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="px-3 py-2">
              <Link href={sortHref("item")}>Item{arrow("item")}</Link>
            </th>
            <th>Video</th>
            <th>Fields</th>
            {criteria.map((c) => (
              <th key={c.id} data-testid="rubric-item-criterion">
                <Link href={sortHref(c.id)}>
                  {c.name}
                  {arrow(c.id)}
                </Link>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.itemId} data-testid="rubric-item-row">
              <td className="px-3 py-2 font-mono text-xs">{row.externalId}</td>
              <td className="max-w-[12rem] truncate">
                <Link
                  href={`/projects/${projectId}/runs/${runId}/videos/${row.videoId}`}
                  className="text-indigo-700 underline"
                >
                  {row.fileName}
                </Link>
              </td>
              <td className="max-w-md py-1">
                {row.fields.map((f) => (
                  <div key={f.id} className="truncate" title={f.value}>
                    <span className="text-slate-500">{f.label}:</span> {f.value}
                  </div>
                ))}
              </td>
              {criteria.map((c) => (
                <td key={c.id}>
                  {row.blind ? (
                    <span
                      className="rounded bg-slate-800 px-1 text-xs text-white"
                      title="You are reviewing this video in a blind queue: shown once you submit"
                    >
                      blind
                    </span>
                  ) : (
                    row.shown[c.id]
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** One criterion's value range and text in the fields, sent as the page's search params (the sort kept). */
function ItemValuesFilter({ list, action }: { list: RubricItemValues; action: string }) {
  const { criteria, rows, query } = list;
  return (
    <form
      method="get"
      action={action}
      className="flex flex-wrap items-end gap-2 text-sm"
      data-testid="rubric-item-filter"
    >
      <label className="flex flex-col">
        <span className="text-xs text-slate-500">Criterion</span>
        <select
          name="itemCriterion"
          defaultValue={query.criterion ?? ""}
          className="rounded border border-slate-300 px-2 py-1"
        >
          <option value="">any</option>
          {criteria.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col">
        <span className="text-xs text-slate-500">from</span>
        <input
          name="itemMin"
          type="number"
          step="any"
          defaultValue={query.min ?? ""}
          className="w-20 rounded border border-slate-300 px-2 py-1"
        />
      </label>
      <label className="flex flex-col">
        <span className="text-xs text-slate-500">to</span>
        <input
          name="itemMax"
          type="number"
          step="any"
          defaultValue={query.max ?? ""}
          className="w-20 rounded border border-slate-300 px-2 py-1"
        />
      </label>
      <label className="flex flex-col">
        <span className="text-xs text-slate-500">Text</span>
        <input name="itemText" defaultValue={query.text} className="rounded border border-slate-300 px-2 py-1" />
      </label>
      <input type="hidden" name="itemSort" value={query.sort} />
      <input type="hidden" name="itemDir" value={query.dir} />
      <button type="submit" className="rounded bg-indigo-600 px-3 py-1 text-white">
        Filter
      </button>
      <span className="text-slate-500" data-testid="rubric-item-count">
        {rows.length} of {list.total} items
      </span>
    </form>
  );
}
