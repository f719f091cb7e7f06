const integer = new Intl.NumberFormat("en-IE");

/**
 * A count with its noun, singular for one and plural otherwise: "1 entry", "0 entries", "1,204 offers". The one
 * way the shop's screens say how many of a thing there are, so no screen reads "1 entries" or "order(s)".
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${integer.format(count)} ${count === 1 ? one : many}`;
}
