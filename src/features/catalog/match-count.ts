/** A count of matches as the shop shows it: "1,000+" when counting stopped there (see `MATCH_COUNT_LIMIT`). */
export function formatMatchCount(count: number, exact: boolean): string {
  return `${count.toLocaleString("en-IE")}${exact ? "" : "+"}`;
}
