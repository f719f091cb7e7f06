import { describe, expect, it } from "vitest";
import { marketplaceSigningKeyStore } from "@/server/integrations/marketplace/signing-key-store";
import { marketplaceTokenStore } from "@/server/integrations/marketplace/token-store";
import { ebayCredentials, startEbayStandIn } from "../../../../tests/helpers/ebay-stand-in";
import { taxonomyStandIn } from "../../../../tests/helpers/ebay-taxonomy-stand-in";
import { standInForFile } from "../../../../tests/helpers/stand-in";
import { databaseForFile } from "../../../../tests/helpers/test-database";
import { createEbayMarketplace } from "./ebay";

/**
 * Issue 30: the live adapter reads eBay's category rules as the Taxonomy and Metadata APIs document them (PROVIDERS.md
 * section 12), with the application token: the site's default tree and its version, a category's item specifics with
 * aspectRequired / aspectUsage / aspectMode and their values, and the allowed conditions by condition id.
 */

const t = databaseForFile();
const ebay = standInForFile(startEbayStandIn);

const newEbay = () =>
  createEbayMarketplace({
    baseUrl: ebay.url,
    ...ebayCredentials,
    policies: { fulfillmentPolicyId: "1", paymentPolicyId: "2", returnPolicyId: "3" },
    merchantLocationKey: "amsterdam",
    notificationVerificationToken: null,
    tokenStore: marketplaceTokenStore(t.db),
    signingKeyStore: marketplaceSigningKeyStore(t.db),
  });

describe("live eBay adapter: category rules", () => {
  it("reads the default category tree, a category's item specifics and its allowed conditions", async () => {
    taxonomyStandIn.treeVersion = "131";
    const marketplace = newEbay();
    expect(await marketplace.getCategoryTree("EBAY_NL")).toEqual({ treeId: "146", version: "131" });

    const { categoryName, aspects } = await marketplace.getCategoryAspects("146", "31387");
    expect(categoryName).toBe("Wristwatches");
    expect(aspects.find((aspect) => aspect.name === "Movement")).toMatchObject({ required: true, usage: "RECOMMENDED", mode: "SELECTION_ONLY", multi: false, maxLength: 65 });
    expect(aspects.find((aspect) => aspect.name === "Movement")!.values).toContain("Mechanical (Hand-winding)");
    expect(aspects.find((aspect) => aspect.name === "Band Material")).toMatchObject({ required: false, usage: "OPTIONAL", mode: "FREE_TEXT", values: [] });

    // Two categories in one filter; the RESTRICTED refurbished grade is not the shop's to use; 204 for none known.
    const policies = await marketplace.getConditionPolicies("EBAY_NL", ["31387", "57720"]);
    expect(policies).toEqual([
      { categoryId: "31387", conditionRequired: true, conditions: ["NEW", "NEW_OTHER", "NEW_WITH_DEFECTS", "USED_EXCELLENT", "FOR_PARTS_OR_NOT_WORKING"] },
      { categoryId: "57720", conditionRequired: true, conditions: ["NEW", "NEW_OTHER", "USED_EXCELLENT", "FOR_PARTS_OR_NOT_WORKING"] },
    ]);
    expect(await marketplace.getConditionPolicies("EBAY_NL", ["424242"])).toEqual([]);

    const calls = ebay.requests.filter((request) => request.path.startsWith("/commerce/taxonomy") || request.path.startsWith("/sell/metadata"));
    expect(calls.map((request) => `${request.path}?${request.query}`)).toEqual([
      "/commerce/taxonomy/v1/get_default_category_tree_id?marketplace_id=EBAY_NL",
      "/commerce/taxonomy/v1/category_tree/146/get_item_aspects_for_category?category_id=31387",
      "/commerce/taxonomy/v1/category_tree/146/get_category_subtree?category_id=31387",
      `/sell/metadata/v1/marketplace/EBAY_NL/get_item_condition_policies?filter=${encodeURIComponent("categoryIds:{31387|57720}")}`,
      `/sell/metadata/v1/marketplace/EBAY_NL/get_item_condition_policies?filter=${encodeURIComponent("categoryIds:{424242}")}`,
    ]);
    // The application token, never the seller's.
    expect(calls.every((request) => String(request.headers.authorization).includes("app-"))).toBe(true);
  });
});
