import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { channelPrice, channelPriceBasis } from "./channel-price";

const d = (value: string | number) => new Decimal(value);

describe("channelPrice", () => {
  it("is the list price with the markup, rounded to whole cents half up", () => {
    expect(channelPrice({ price: d("100.00"), ebayPrice: null }, d(12)).toFixed(2)).toBe("112.00");
    // 19.99 × 1.125 = 22.48875 → 22.49
    expect(channelPrice({ price: d("19.99"), ebayPrice: null }, d("12.5")).toFixed(2)).toBe("22.49");
    // 0.10 × 1.05 = 0.105: exactly half a cent goes up, where a float would give 0.10500000000000001 or 0.1049…
    expect(channelPrice({ price: d("0.10"), ebayPrice: null }, d(5)).toString()).toBe("0.11");
    // 33.33 × 0.9 = 29.997 → 30.00
    expect(channelPrice({ price: d("33.33"), ebayPrice: null }, d(-10)).toFixed(2)).toBe("30.00");
    expect(channelPrice({ price: d("250.00"), ebayPrice: null }, d(0)).toFixed(2)).toBe("250.00");
  });

  it("is the fixed eBay price when staff set one, whatever the markup", () => {
    expect(channelPrice({ price: d("100.00"), ebayPrice: d("129.00") }, d(12)).toFixed(2)).toBe("129.00");
    expect(channelPrice({ price: d("100.00"), ebayPrice: d("89.995") }, d(12)).toFixed(2)).toBe("90.00");
  });

  it("does not pass a web-shop discount on to eBay unless staff set it as the eBay price", () => {
    // A product listed at €200 on a 25 % sale in the web shop (€150 on its card): the sale is the web shop's, and the
    // rule sees only the list price, so eBay gets €200 with the markup...
    const onSale = { price: d("200.00"), ebayPrice: null };
    expect(channelPrice(onSale, d(10)).toFixed(2)).toBe("220.00");
    // ...until staff mean the sale for eBay too, by fixing the eBay price.
    expect(channelPrice({ ...onSale, ebayPrice: d("150.00") }, d(10)).toFixed(2)).toBe("150.00");
  });

  it("says how the price came about", () => {
    expect(channelPriceBasis({ ebayPrice: d(5) }, d(10))).toBe("fixed");
    expect(channelPriceBasis({ ebayPrice: null }, d(10))).toBe("+10%");
    expect(channelPriceBasis({ ebayPrice: null }, d("-7.5"))).toBe("−7.5%");
    expect(channelPriceBasis({ ebayPrice: null }, d(0))).toBe("no markup");
  });
});
