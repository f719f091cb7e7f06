import { describe, expect, it } from "vitest";
import { listProductImageObjects, productImageKey, productImagePosition } from "./port";

describe("product image keys", () => {
  it("reads back the position of every key productImageKey writes", () => {
    for (const position of [1, 2, 10]) expect(productImagePosition(42, productImageKey(42, position))).toBe(position);
  });

  it("takes nothing else for a picture: other products, sub-folders, padded numbers, other formats", () => {
    for (const key of ["products/4/1.webp", "products/420/1.webp", "products/42/old/1.webp", "products/42/01.webp", "products/42/1.png", "products/42/0.webp"]) {
      expect(productImagePosition(42, key)).toBeNull();
    }
  });

  it("lists a product's pictures by position, numerically, skipping stray files", async () => {
    const keys = ["products/42/10.webp", "products/42/2.webp", "products/42/notes.txt", "products/42/old/1.webp", "products/42/1.webp"];
    const storage = { list: async () => keys.map((key) => ({ key, size: 1, updatedAt: new Date(0) })) };
    expect((await listProductImageObjects(storage, 42)).map((object) => object.key)).toEqual([
      "products/42/1.webp",
      "products/42/2.webp",
      "products/42/10.webp",
    ]);
  });
});
