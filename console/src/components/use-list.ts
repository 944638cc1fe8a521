import { useEffect, useState } from "react";
import type { Sorting } from "./data-table";

/** How long typing in a search box pauses before the list is asked again. */
const SEARCH_PAUSE_MS = 300;

/**
 * The state every paged list keeps: page, search (sent once typing pauses), sort and filters.
 * Any change but the page itself goes back to page 1.
 */
export function useList<F extends Record<string, string>, S extends string>(initial: { filters: F; sort: S; order: "asc" | "desc" }) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [sentSearch, setSentSearch] = useState("");
  const [filters, setFilters] = useState(initial.filters);
  const [sorting, setSorting] = useState<{ sort: S; order: "asc" | "desc" }>({ sort: initial.sort, order: initial.order });

  useEffect(() => {
    const timer = setTimeout(() => {
      setSentSearch(search.trim());
      setPage(1);
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const setFilter = (name: keyof F, value: string) => {
    setFilters({ ...filters, [name]: value });
    setPage(1);
  };

  return {
    page,
    setPage,
    search,
    setSearch,
    /** The search as the API should get it: undefined when empty. */
    sentSearch: sentSearch || undefined,
    filters,
    setFilter,
    /** The value and onChange of a filter's control, spread onto it. */
    field: (name: keyof F) => ({
      value: filters[name],
      onChange: (event: { target: { value: string } }) => setFilter(name, event.target.value),
    }),
    sorting,
    setSorting: (next: Sorting) => {
      setSorting({ sort: next.sort as S, order: next.order });
      setPage(1);
    },
  };
}
