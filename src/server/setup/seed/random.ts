/**
 * A small seeded random generator (mulberry32), so that the demo catalogue is the same on every run and on every
 * machine. Not for anything secret.
 */
export type Random = {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** One of the entries, each as likely as its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
};

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error("Cannot pick from an empty list");
      return items[int(0, items.length - 1)] as T;
    },
    chance: (probability) => next() < probability,
    weighted<T>(entries: readonly (readonly [T, number])[]): T {
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [value, weight] of entries) {
        roll -= weight;
        if (roll < 0) return value;
      }
      const last = entries.at(-1);
      if (!last) throw new Error("Cannot pick from an empty list");
      return last[0];
    },
  };
}

/**
 * A generator of its own for one item (one product), so that product 17 is the same whether the catalogue has
 * 300 or 100 000 products.
 */
export function randomFor(seed: number, index: number): Random {
  // Spread neighbouring indexes apart (a multiplicative hash) before they become seeds.
  return createRandom(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
}
