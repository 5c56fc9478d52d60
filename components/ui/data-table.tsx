import { Fragment, type HTMLAttributes, type ReactElement, type ReactNode, type TdHTMLAttributes } from "react";

/** data-* attributes, which the end-to-end tests select rows and cells on. */
type DataAttributes = { [key: `data-${string}`]: string | number | boolean | undefined };

type CellProps = TdHTMLAttributes<HTMLTableCellElement> & DataAttributes;

type ColumnBase = {
  id: string;
  header: ReactNode;
  align?: "right";
  /** Classes of the column's cells (the header keeps the table's header style: a cell's font or colour is the data's). */
  className?: string;
};

/**
 * A column: `cell` gives a row's content, which the table wraps in a <td> (with `cellProps`' attributes: a title,
 * a data-testid, a colSpan, whose covered columns the row then skips); or `td` gives the whole cell, for the shared
 * cell components that render their own <td> (a metric with its interval).
 */
export type Column<Row> = ColumnBase &
  (
    | { cell: (row: Row) => ReactNode; cellProps?: (row: Row) => CellProps; td?: never }
    | { td: (row: Row) => ReactElement; cell?: never; cellProps?: never }
  );

const SIZES = {
  /** Dense lists (funnels, candidates): small type, cells padded right. */
  xs: { table: "text-xs", thead: "text-slate-500", cell: "py-1 pr-3 last:pr-0" },
  /** Result tables: body type, padded cells, an uppercase header. */
  sm: { table: "text-sm", thead: "text-xs uppercase text-slate-500", cell: "px-2 py-1" },
} as const;

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(" ");

/**
 * A table from a column list: one row per item, keyed by `rowKey`, with `rowProps`' attributes (data-testid,
 * data-* that tests select on, a class). With no rows it shows `empty` instead (a string in muted text, or the
 * node given). Scrolls sideways inside its card when wider. No "use client": server pages render it, their cell
 * functions called during render.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowProps,
  size = "sm",
  cellPadding,
  testId,
  empty,
}: {
  columns: readonly (Column<Row> | false | null | undefined)[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & DataAttributes;
  size?: keyof typeof SIZES;
  /** The body cells' padding, in place of the size's (the header keeps it). */
  cellPadding?: string;
  testId?: string;
  empty?: ReactNode;
}) {
  if (rows.length === 0 && empty !== undefined)
    return typeof empty === "string" ? <p className="text-sm text-slate-500">{empty}</p> : <>{empty}</>;
  const style = SIZES[size];
  const shown = columns.filter((c): c is Column<Row> => Boolean(c));
  const align = (c: Column<Row>) => c.align === "right" && "text-right";
  return (
    <div className="overflow-x-auto">
      <table className={`w-full text-left ${style.table}`} data-testid={testId}>
        <thead className={style.thead}>
          <tr>
            {shown.map((c) => (
              <th key={c.id} className={classes(style.cell, align(c))}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => {
            let skip = 0;
            return (
              <tr key={rowKey(row)} {...rowProps?.(row)}>
                {shown.map((c) => {
                  if (skip > 0) {
                    skip -= 1;
                    return null;
                  }
                  if (c.td) return <Fragment key={c.id}>{c.td(row)}</Fragment>;
                  const { className, ...props } = c.cellProps?.(row) ?? {};
                  skip = (props.colSpan ?? 1) - 1;
                  return (
                    <td
                      key={c.id}
                      {...props}
                      className={classes(cellPadding ?? style.cell, align(c), c.className, className)}
                    >
                      {c.cell(row)}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
