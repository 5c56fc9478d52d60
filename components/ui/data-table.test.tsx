// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { type Column, DataTable } from "./data-table";

afterEach(cleanup);

type Stage = { id: string; label: string; kept: number; hidden?: boolean };
const stages: Stage[] = [
  { id: "blind", label: "Blind", kept: 12 },
  { id: "tricky", label: "Tricky", kept: 3, hidden: true },
];
const columns: Column<Stage>[] = [
  { id: "stage", header: "stage", className: "font-medium", cell: (s) => s.label },
  {
    id: "kept",
    header: "kept",
    align: "right",
    cellProps: (s) => ({ "data-testid": "kept", title: `${s.kept} kept` }),
    cell: (s) => s.kept,
  },
  {
    id: "note",
    header: "note",
    cellProps: (s) => (s.hidden ? { colSpan: 2, "data-testid": "hidden" } : {}),
    cell: (s) => (s.hidden ? "hidden" : "shown"),
  },
  { id: "own", header: "own cell", td: (s) => <td data-testid="own">{s.id}</td> },
];
const texts = (elements: HTMLElement[]) => elements.map((e) => e.textContent);

describe("the shared data table", () => {
  it("renders a header per column and a row per item with its attributes, inside a sideways-scrolling wrapper", () => {
    render(
      <DataTable
        testId="funnel"
        columns={columns}
        rows={stages}
        rowKey={(s) => s.id}
        rowProps={(s) => ({ "data-testid": "stage", "data-stage": s.id })}
      />,
    );
    const table = screen.getByTestId("funnel");
    expect(table.parentElement!.className).toBe("overflow-x-auto");
    expect(texts(within(table).getAllByRole("columnheader"))).toEqual(["stage", "kept", "note", "own cell"]);
    const rows = screen.getAllByTestId("stage");
    expect(rows.map((r) => r.getAttribute("data-stage"))).toEqual(["blind", "tricky"]);
    expect(texts(within(rows[0]!).getAllByRole("cell"))).toEqual(["Blind", "12", "shown", "blind"]);
    const kept = within(rows[0]!).getByTestId("kept");
    expect(kept.getAttribute("title")).toBe("12 kept");
    expect(kept.className.split(" ")).toContain("text-right");
    expect(within(rows[0]!).getAllByRole("cell")[0]!.className.split(" ")).toContain("font-medium");
    // A column's classes style its cells, not its header.
    expect(within(table).getAllByRole("columnheader")[0]!.className.split(" ")).not.toContain("font-medium");
  });

  it("skips the columns a cell's colSpan covers", () => {
    render(
      <DataTable
        columns={columns}
        rows={stages}
        rowKey={(s) => s.id}
        rowProps={(s) => ({ "data-testid": `row-${s.id}` })}
      />,
    );
    const cells = within(screen.getByTestId("row-tricky")).getAllByRole("cell");
    expect(texts(cells)).toEqual(["Tricky", "3", "hidden"]);
    expect(cells[2]!.getAttribute("colspan")).toBe("2");
  });

  it("leaves out columns given as false, and pads and sizes cells by its size", () => {
    const { container } = render(
      <DataTable
        size="xs"
        columns={[columns[0], false, columns[1]]}
        rows={stages}
        rowKey={(s) => s.id}
        cellPadding="py-2 pr-3"
      />,
    );
    const table = container.querySelector("table")!;
    expect(table.className.split(" ")).toContain("text-xs");
    expect(texts(within(table).getAllByRole("columnheader"))).toEqual(["stage", "kept"]);
    expect(within(table).getAllByRole("columnheader")[0]!.className.split(" ")).toEqual(
      expect.arrayContaining(["py-1", "pr-3"]),
    );
    expect(within(table).getAllByRole("cell")[0]!.className.split(" ")).toEqual(
      expect.arrayContaining(["py-2", "pr-3"]),
    );
    expect(container.querySelector("thead")!.className).not.toContain("uppercase");
  });

  it("uppercases the header of the default size", () => {
    const { container } = render(<DataTable columns={columns} rows={stages} rowKey={(s) => s.id} />);
    expect(container.querySelector("table")!.className.split(" ")).toContain("text-sm");
    expect(container.querySelector("thead")!.className.split(" ")).toContain("uppercase");
  });

  it("shows the empty message instead of a table when there is no row", () => {
    const { container, rerender } = render(
      <DataTable columns={columns} rows={[]} rowKey={(s) => s.id} empty="No stage matches." />,
    );
    expect(container.querySelector("table")).toBeNull();
    expect(container.textContent).toBe("No stage matches.");
    rerender(
      <DataTable columns={columns} rows={[]} rowKey={(s) => s.id} empty={<em data-testid="custom-empty">none</em>} />,
    );
    expect(screen.getByTestId("custom-empty").textContent).toBe("none");
    rerender(<DataTable columns={columns} rows={[]} rowKey={(s) => s.id} />);
    expect(container.querySelectorAll("thead th")).toHaveLength(4);
    expect(container.querySelectorAll("tbody tr")).toHaveLength(0);
  });
});
