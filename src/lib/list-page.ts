import { z } from "zod";

/** The rows a page of a back-office list (orders, offers, products, the logbook) can hold; 50 unless the address asks. */
export const LIST_PAGE_SIZES = [25, 50, 100] as const;
export type ListPageSize = (typeof LIST_PAGE_SIZES)[number];

/** No list has this many pages; a larger page number would only make the database skip rows for nothing. */
const LAST_PAGE = 100_000;

/** The page a back-office list's input asks for, and its size. */
export const listPageInput = z.object({
  page: z.number().int().min(1).max(LAST_PAGE).default(1),
  pageSize: z.literal(LIST_PAGE_SIZES).default(50),
});

/** The page and its size as a list's address spells them (`page`, `size`); anything else reads as page one of 50. */
export function listPageFromAddress(search: Pick<URLSearchParams, "get">): { page: number; pageSize: ListPageSize } {
  const page = Number(search.get("page"));
  const size = Number(search.get("size"));
  return {
    page: Number.isInteger(page) && page > 0 ? Math.min(page, LAST_PAGE) : 1,
    pageSize: (LIST_PAGE_SIZES as readonly number[]).includes(size) ? (size as ListPageSize) : 50,
  };
}
