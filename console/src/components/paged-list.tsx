import type { ReactNode } from "react";
import type { QueryState } from "../api/hooks";
import { DataTable, type DataTableProps, type Sorting } from "./data-table";
import { Loading, Notice } from "./notice";
import { Pager, type Pagination } from "./pager";
import { SearchField } from "./search-field";

interface PagedListProps<T> extends Pick<DataTableProps<T>, "caption" | "columns" | "rowKey" | "empty"> {
  /** The list's state from useList: its search, sort and page. */
  list: {
    search: string;
    setSearch: (search: string) => void;
    sorting: Sorting;
    setSorting: (sorting: Sorting) => void;
    setPage: (page: number) => void;
  };
  /** The page's query; its data is undefined until the first answer. */
  query: Pick<QueryState<{ items: readonly T[]; pagination: Pagination }>, "data" | "error" | "loading">;
  /** The search box's placeholder; without one the list has no search box. */
  search?: string;
  /** The filter controls after the search box; without them and a search box, the list has no filter bar. */
  children?: ReactNode;
  /** The rows to show when they are not the answer's own (trips change theirs live). */
  rows?: readonly T[];
  /** What the operator's last action did. */
  done?: string | null;
}

/**
 * A paged list's body: its search box and filters, notices, then the table and pager. Only the
 * first load shows the spinner; later ones keep the previous page on screen, marked busy.
 */
export function PagedList<T>({ list, query: { data, error, loading }, search, children, rows, done, ...table }: PagedListProps<T>) {
  return (
    <>
      {(search || children) && (
        <div className="filtros">
          {search && <SearchField value={list.search} onChange={list.setSearch} placeholder={search} />}
          {children}
        </div>
      )}
      <Notice kind="exito">{done}</Notice>
      <Notice kind="error">{error}</Notice>
      {!data && loading ? (
        <Loading />
      ) : (
        <>
          <DataTable {...table} rows={rows ?? data?.items ?? []} sorting={list.sorting} onSort={list.setSorting} busy={loading} />
          {data && <Pager pagination={data.pagination} onPage={list.setPage} />}
        </>
      )}
    </>
  );
}
