/** One page of a list: its rows, how many there are in all, and how many pages that makes. */
export type Page<T> = { rows: T[]; totalItems: number; page: number; pageSize: number; totalPages: number };

/** The page of a list the back office's tables show. An empty list still has one page: "page 1 of 1", never "of 0". */
export function pageOf<T>(rows: T[], totalItems: number, input: { page: number; pageSize: number }): Page<T> {
  return { rows, totalItems, page: input.page, pageSize: input.pageSize, totalPages: pageCount(totalItems, input.pageSize) };
}

/** How many pages `totalItems` fill, at least one. */
export function pageCount(totalItems: number, pageSize: number): number {
  return Math.max(1, Math.ceil(totalItems / pageSize));
}
