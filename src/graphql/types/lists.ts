import type { OutputRef } from "@pothos/core";
import { SORT_ORDERS, type Sorting } from "../../domain/paging.js";
import { builder } from "../builder.js";
import { describedEnum } from "./enums.js";

/**
 * The one convention of every list that grows: a page object `{ items, pagination }`, and the
 * arguments `page`, `per_page`, `search`, `sort` (a list's own enum of fields) and `order`.
 */
export interface PaginationView {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

const Pagination = builder.objectRef<PaginationView>("Paginacion").implement({
  description: "Dónde está una página de una lista y cuántos registros cumplen el filtro",
  fields: (t) => ({
    page: t.exposeInt("page", { description: "Esta página, desde 1" }),
    per_page: t.exposeInt("per_page", { description: "Registros por página" }),
    total: t.exposeInt("total", { description: "Registros que cumplen el filtro" }),
    total_pages: t.exposeInt("total_pages", { description: "Páginas en total" }),
  }),
});

/** Which page of a listing, as the legacy interface has it (docs/legacy-api.md). */
export const pageArgs = builder.args((t) => ({
  page: t.int({ description: "Desde 1 (por defecto 1)" }),
  per_page: t.int({ description: "De 1 a 100 (por defecto 20)" }),
}));

const SortOrder = builder.enumType("Orden", {
  description: "El sentido de un orden",
  values: {
    asc: { value: SORT_ORDERS[0], description: "De menor a mayor" },
    desc: { value: SORT_ORDERS[1], description: "De mayor a menor" },
  },
});

/** A list's page type: its rows as `items`, and where the page is; `Page` may carry more, for fields added to it. */
export function pageType<Row, Page extends { items: Row[]; pagination: PaginationView } = { items: Row[]; pagination: PaginationView }>(
  name: string,
  item: OutputRef<Row>,
  description: string,
) {
  return builder.objectRef<Page>(name).implement({
    description,
    fields: (t) => ({
      items: t.field({ type: [item], description: "Los registros de esta página", resolve: (page) => page.items }),
      pagination: t.field({ type: Pagination, description: "Dónde está esta página", resolve: (page) => page.pagination }),
    }),
  });
}

/**
 * A list's `sort` and `order` arguments: `sort` takes an enum `name` of the fields the domain's
 * `sorting` knows, each described in `labels`, and both say the default that sorting applies.
 */
export function sortArgs<const Field extends string>(
  name: string,
  description: string,
  sorting: Sorting<Field, unknown>,
  labels: Record<NoInfer<Field> | "id", string>,
) {
  const fields = describedEnum(name, description, labels);
  return builder.args((t) => ({
    sort: t.field({ type: fields, description: `Por qué ordenar (por defecto ${sorting.sort})` }),
    order: t.field({
      type: SortOrder,
      description:
        sorting.order === "asc"
          ? "El sentido (por defecto asc)"
          : `El sentido (por defecto desc si se ordena por ${sorting.sort}, asc si por otro)`,
    }),
  }));
}
