import type { ReactNode } from "react";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** The sort this column's header sets, when the list can be sorted by it. */
  sort?: string;
  /** "numero" right-aligns figures; "clave" keeps an identifier (a NIT) on one line. */
  kind?: "numero" | "acciones" | "clave";
}

export interface Sorting {
  sort: string;
  order: "asc" | "desc";
}

export interface DataTableProps<T> {
  caption: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  empty?: string;
  sorting?: Sorting;
  onSort?: (sorting: Sorting) => void;
  busy?: boolean;
}

/** The header of a sortable column: a button that sorts by it, ascending first, then the other way. */
function SortButton({
  header,
  column,
  sorting,
  onSort,
}: {
  header: string;
  column: string;
  sorting: Sorting;
  onSort: (s: Sorting) => void;
}) {
  const active = sorting.sort === column;
  const next = active && sorting.order === "asc" ? "desc" : "asc";
  return (
    <button type="button" className="tabla__orden" onClick={() => onSort({ sort: column, order: next })}>
      {header}
      <span aria-hidden="true">{active ? (sorting.order === "asc" ? " ▲" : " ▼") : " ↕"}</span>
    </button>
  );
}

/** A table of records; on a narrow screen it scrolls sideways inside its frame. */
export function DataTable<T>({ caption, columns, rows, rowKey, empty = "No hay registros.", sorting, onSort, busy }: DataTableProps<T>) {
  const ariaSort = (column: Column<T>) => {
    if (!column.sort || sorting?.sort !== column.sort) return undefined;
    return sorting.order === "asc" ? "ascending" : "descending";
  };
  return (
    <div className="tabla-marco" aria-busy={busy}>
      <table className="tabla">
        <caption className="solo-lector">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={column.kind ? `tabla__${column.kind}` : undefined}
                aria-sort={ariaSort(column)}
              >
                {column.sort && sorting && onSort ? (
                  <SortButton header={column.header} column={column.sort} sorting={sorting} onSort={onSort} />
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="tabla__vacia">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.header} className={column.kind ? `tabla__${column.kind}` : undefined} data-titulo={column.header}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
