import { describe, expect, it } from "vitest";
import { deliveryMethods } from "./enums";
import { shippingMethodLabels } from "./labels";

describe("the shipping methods' names", () => {
  it("name no carrier: a tracked parcel goes with PostNL, DHL or UPS, whichever the label rules choose", () => {
    expect(shippingMethodLabels.TNT).toBe("Tracked parcel");
    for (const method of deliveryMethods) expect(shippingMethodLabels[method]).not.toMatch(/TNT|PostNL|DHL|UPS/i);
  });
});
