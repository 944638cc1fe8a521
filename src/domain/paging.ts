import { integer, oneOf, optional } from "./validation.js";

/** Spec section 8: pages of 20 by default, 100 at most. */
const PAGE = { defaultSize: 20, maxSize: 100 } as const;

const sizeRange = `debe estar entre 1 y ${PAGE.maxSize}`;

/** The page and per_page inputs of a paged listing. */
export const pageFields = {
  page: optional(integer().min(1, "debe ser 1 o mayor")),
  per_page: optional(integer().min(1, sizeRange).max(PAGE.maxSize, sizeRange)),
};

/** The rows a page holds, and the pagination object (spec 2.11) once the total is known. */
export function pageOf(input: { page?: number; per_page?: number }) {
  const page = input.page ?? 1;
  const per_page = input.per_page ?? PAGE.defaultSize;
  return {
    skip: (page - 1) * per_page,
    take: per_page,
    pagination: (total: number) => ({ page, per_page, total, total_pages: Math.ceil(total / per_page) }),
  };
}

/** A search of digits alone names a record by its number (a trip, an audited target): that number, or null. */
export const searchedId = (search: string): number | null => (/^\d{1,9}$/.test(search) ? Number(search) : null);

export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The sort and order inputs of a listing that can be sorted by any of `fields`. */
export function sortFields<const Field extends string>(fields: readonly [Field, ...Field[]]) {
  return { sort: optional(oneOf(fields)), order: optional(oneOf(SORT_ORDERS)) };
}

/**
 * How a listing sorts: the ordering of each field it can be sorted by (its id among them, which
 * also breaks ties), and the field and order used when none is asked for.
 */
export interface Sorting<Field extends string, OrderBy> {
  columns: Record<Field | "id", (order: SortOrder) => OrderBy | OrderBy[]>;
  sort: Field | "id";
  order: SortOrder;
}

/** Orders by a column of the listed table. */
export const byColumn =
  <Name extends string>(name: Name) =>
  (order: SortOrder) =>
    ({ [name]: order }) as { [Key in Name]: SortOrder };

/**
 * The orderBy of a listing: the field asked for, in the order asked for (by default the listing's
 * own order for its default field, ascending for the others), then the id in the same order, so
 * that a page never repeats or skips a row.
 */
export function orderOf<Field extends string, OrderBy>(
  sorting: Sorting<Field, OrderBy>,
  input: { sort?: Field; order?: SortOrder },
): OrderBy[] {
  const sort = input.sort ?? sorting.sort;
  const order = input.order ?? (sort === sorting.sort ? sorting.order : "asc");
  return [sorting.columns[sort](order), ...(sort === "id" ? [] : [sorting.columns.id(order)])].flat() as OrderBy[];
}
