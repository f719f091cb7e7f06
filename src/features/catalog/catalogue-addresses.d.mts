export const HOME_EDITION: string;
export const SEARCH_PARAMETERS: readonly string[];
export function defaultSortOf(search: string): string;
export function searchKeyOf(searchParams: URLSearchParams): string;
export function searchParametersOfKey(key: string): URLSearchParams | null;
export function cachedPagePath(pathname: string, query: string): string | null;
