import { integer, optional } from "../validation.js";

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
