import { getTableColumns, is, sql } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import { getTableConfig, PgTable, type PgColumn } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/server/db/schema";
import { createTestDatabase, queryRows, type TestDatabase } from "../helpers/test-database";

/**
 * Acceptance: the data model holds every entity, field and enumerated value that SPEC.md names (sections 3, 4, 6
 * and 9), in the Drizzle schema and in a database built by the committed migrations. The lists below are copied
 * from SPEC.md on purpose; do not derive them from the schema or from src/lib/enums.ts.
 */

// SPEC section 3, "Entities and their fields": entity -> fields, as the table lists them.
const specEntities: Record<string, { table: string; fields: string[] }> = {
  Account: {
    table: "account",
    fields: [
      "id", "userId", "type", "provider", "providerAccountId", "refresh_token", "access_token", "expires_at",
      "token_type", "scope", "id_token", "session_state",
    ],
  },
  Session: { table: "session", fields: ["id", "sessionToken", "userId", "expires"] },
  User: { table: "user", fields: ["id", "name", "email", "emailVerified", "image", "role", "discountId"] },
  VerificationToken: { table: "verificationToken", fields: ["identifier", "token", "expires"] },
  addressBook: {
    table: "addressBook",
    fields: [
      "id", "userId", "firstName", "lastName", "companyName", "postCode", "city", "houseNumber", "street",
      "phoneNumber", "email", "country", "countryCode", "addressLine2", "stateCode", "state",
    ],
  },
  adminNotification: { table: "adminNotification", fields: ["id", "type", "message", "severity", "userIdRead"] },
  box: { table: "box", fields: ["id", "status", "estimatedDeliveryDate", "trackingNumber"] },
  purchaseRecord: {
    table: "purchaseRecord",
    fields: ["id", "productId", "boxId", "purchaseCostEuro", "purchaseCostPhp", "purchasedStock", "remainingStock"],
  },
  stockRecord: {
    table: "stockRecord",
    fields: ["id", "type", "inventoryCorrectionId", "orderItemId", "refundId", "purchaseRecordId", "quantity"],
  },
  inventoryCorrection: { table: "inventoryCorrection", fields: ["id", "productId", "quantity", "reason", "comment"] },
  refund: {
    table: "refund",
    fields: [
      "id", "externalRefundId", "originalPaymentId", "type", "refundedOrderItemId", "quantity", "amount",
      "restockedProduct", "providerFees", "reason", "comment", "monetaryRefund",
    ],
  },
  cartItem: { table: "cartItem", fields: ["id", "userId", "productId", "quantity"] },
  configParams: { table: "configParams", fields: ["id", "param", "value"] },
  country: {
    table: "country",
    fields: [
      "id", "phoneCode", "code", "name", "untrackedCost", "tntCost", "untrackedEtaDays", "tntEtaDays",
      "maxOrderUntracked", "active", "eu",
    ],
  },
  shippingSurcharge: { table: "shippingSurcharge", fields: ["id", "minPrice", "maxPrice", "percentage"] },
  region: { table: "region", fields: ["id", "code", "name", "active", "maxOrderUntracked", "countryId"] },
  discount: {
    table: "discount",
    fields: ["id", "name", "active", "value", "discountType", "startsAt", "expiresAt", "pricingType"],
  },
  orderAddress: {
    table: "orderAddress",
    fields: [
      "id", "orderId", "firstName", "lastName", "companyName", "postCode", "city", "houseNumber", "street",
      "phoneNumber", "email", "country", "countryCode", "addressLine2", "stateCode", "state", "referenceLine",
    ],
  },
  orderDetail: {
    table: "orderDetail",
    fields: [
      "id", "orderId", "shippingMethod", "shop", "estimatedShippingDate", "estimatedDeliveryDate", "trackingNumber",
      "labelCost", "totalWeight", "orderEmailSent", "shippingEmailSent", "carrier", "gcsLabelFilename",
    ],
  },
  orderItem: {
    table: "orderItem",
    fields: ["id", "orderId", "productId", "quantity", "totalPrice", "totalDiscountAmount"],
  },
  order: { table: "order", fields: ["id", "userId", "status", "soldAt"] },
  paymentDetail: {
    table: "paymentDetail",
    fields: [
      "id", "externalPaymentId", "orderId", "total", "provider", "providerFees", "additionalShippingFees",
      "itemTotal", "itemTotalDiscountAmount", "shippingTotal",
    ],
  },
  product: {
    table: "product",
    fields: [
      "id", "name", "price", "shippingFee", "stock", "ebayStatus", "wsStatus", "isBulk", "categoryId", "discountId",
      "manufacturerId", "countryId",
    ],
  },
  productRestockManager: { table: "productRestockManager", fields: ["id", "productId", "status"] },
  productCategory: {
    table: "productCategory",
    fields: [
      "id", "name", "isParent", "parentId", "orderWeight", "relatedTo", "ebayMainCategory", "ebayShopCategory",
    ],
  },
  productManufacturer: {
    table: "productManufacturer",
    fields: ["id", "name", "isParent", "parentId", "orderWeight", "ebayShopManufacturer"],
  },
  productDescription: {
    table: "productDescription",
    fields: [
      "productId", "caliber", "state", "itemType", "gender", "condition", "movement", "dimensions", "serialNumber",
      "dialHands", "crystal", "additional", "additional2", "additional3", "bezel", "crown", "language",
      "braceletStrap",
    ],
  },
  productSelectOptions: { table: "productSelectOptions", fields: ["id", "optionText", "selectRow"] },
  // "templateName, templateDescription, plus product and description fields (name, isBulk, categoryId,
  // manufacturerId, countryId, caliber and the others)".
  productTemplate: {
    table: "productTemplate",
    fields: [
      "templateName", "templateDescription",
      "name", "price", "shippingFee", "isBulk", "categoryId", "manufacturerId", "countryId",
      "caliber", "state", "itemType", "gender", "condition", "movement", "dimensions", "serialNumber", "dialHands",
      "crystal", "additional", "additional2", "additional3", "bezel", "crown", "language", "braceletStrap",
    ],
  },
  shippingCalendar: { table: "shippingCalendar", fields: ["id", "shortDate"] },
  logbook: {
    table: "logbook",
    fields: [
      "id", "userId", "eventType", "entityType", "entityId", "previousState", "newState", "errorData", "logLevel",
      "description",
    ],
  },
  logbookReadByUser: { table: "logbookReadByUser", fields: ["id", "logbookId", "userId"] },
};

// SPEC sections 3, 4, 6 and 9: every enumerated value, with the column that stores it.
type SpecEnum = { table: string; column: string; values: string[]; extra?: string[]; why?: string };
const specEnums: Record<string, SpecEnum> = {
  Caliber: {
    table: "productDescription",
    column: "caliber",
    values: ["HANDWIND", "QUARTZ_ELECTRONIC_KINETIC", "CHRONOGRAPH", "AUTOMATIC", "UNKNOWN"],
  },
  State: { table: "productDescription", column: "state", values: ["NEW", "USED", "UNKNOWN"] },
  Gender: { table: "productDescription", column: "gender", values: ["MENS", "LADIES", "UNISEX", "UNKNOWN"] },
  ItemType: {
    table: "productDescription",
    column: "itemType",
    values: [
      "BALANCE_WHEEL", "BATTERY", "BARREL", "BEZEL", "BEZEL_INSERT", "BRACELET", "BRACELET_LINKS", "BRIDGE",
      "BUCKLE_CLASP_CLIP", "CASE", "CASE_BACK", "CASING_CLAMP", "CRYSTAL", "CRYSTAL_REPAIR_SET", "CROWN",
      "CROWN_SET", "DAY_DATE_COMPONENT", "DIAL", "DIAL_CLAMP", "DIAL_HANDS_SET", "DISC", "DIVERS_WATCH",
      "GEARS_AND_WHEELS", "GASKET", "HANDS_SET", "HOUR_HAND", "LEATHER_STRAP", "MAIN_PLATE", "MINUTE_HAND",
      "MINUTE_TRACK", "MOVEMENT", "MOVEMENT_PART", "OTHER_STRAP", "PALLET_FORK_ESCAPE_WHEEL", "POCKET_WATCH",
      "POLISHING_POWDER", "PROTECTOR", "PUSHER", "ROTOR", "SCREWS", "SECOND_HAND", "SPRING", "SPRINGBAR", "STEM",
      "STOPWATCH", "STICKERS", "TUBE", "TWEEZERS", "VARIOUS_PARTS", "WRISTWATCH", "AUTOMATIC", "HANDWINDER",
      "QUARTZ_ELECTRONIC_KINETIC", "CHRONOGRAPH", "HANDS", "UNKNOWN",
    ],
  },
  "order status": {
    table: "order",
    column: "status",
    values: ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED", "SHIPPED", "CANCELLED"],
  },
  "box status": { table: "box", column: "status", values: ["OPEN", "SHIPPED", "EXPLODED"] },
  "restock status": {
    table: "productRestockManager",
    column: "status",
    values: ["APPROVED", "REJECTED"],
    extra: ["PENDING", "RECEIVED"],
    why: "SPEC section 4: 'routes also show a pending state'; issue 28 closes an approved request once its pieces are in stock",
  },
  "stock record type": {
    table: "stockRecord",
    column: "type",
    values: ["PURCHASE_RECORD", "ORDER_ITEM", "REFUND", "INVENTORY_CORRECTION"],
  },
  "inventory correction reason": { table: "inventoryCorrection", column: "reason", values: ["DAMAGED", "LOST", "OTHER"] },
  "refund type": { table: "refund", column: "type", values: ["SHIPPING", "PRODUCT"] },
  "refund reason": {
    table: "refund",
    column: "reason",
    values: ["LOST_IN_TRANSIT", "DAMAGED", "WRONG_ITEM", "WRONG_ADDRESS", "OTHER"],
  },
  "notification severity": { table: "adminNotification", column: "severity", values: ["INFO", "WARNING", "ERROR"] },
  "log level": { table: "logbook", column: "logLevel", values: ["INFO", "WARNING", "ERROR"] },
  "pricing type": { table: "discount", column: "pricingType", values: ["PERCENT", "FIXED"] },
  "shipping method": {
    table: "orderDetail",
    column: "shippingMethod",
    values: ["UNTRACKED", "TNT"],
    extra: ["COLLECTED"],
    why: "issue 28: a counter sale is collected in the shop, with no address and no parcel",
  },
  shop: { table: "orderDetail", column: "shop", values: ["EBAY", "WEBSHOP"] },
  carrier: { table: "orderDetail", column: "carrier", values: ["POSTNL", "UPS"] },
  "notification type": {
    table: "adminNotification",
    column: "type",
    values: ["DEPLOYMENT", "EBAY_ORDER", "ORDER", "REFUND", "OTHER"],
  },
  "log event type": {
    table: "logbook",
    column: "eventType",
    values: [
      "STOCK_CHANGE", "ORDER", "REFUND", "PRODUCT", "DEPLOY", "ADDRESS", "EBAY_API", "WEBHOOK", "EMAIL",
      "HEALTH_CHECK",
    ],
    extra: ["DISCOUNT", "SHIPPING_COST", "SECURITY", "CUSTOMER"],
    why: "SPEC section 1 has staff run discounts and shipping surcharges, and every change goes in the logbook; a member of staff adding or removing a second factor (issue 24) is logged as SECURITY; a customer's sign-up and staff's changes to a customer (note, tags, VIP, their data exported or erased, issue 28) as CUSTOMER",
  },
  "log entity type": {
    table: "logbook",
    column: "entityType",
    values: [
      "PRODUCT", "ORDER", "ORDER_ITEM", "ORDER_DETAIL", "PAYMENT_DETAIL", "ORDER_ADDRESS", "REFUND", "SALES_RECORD",
      "USER", "PURCHASE_RECORD", "ADDRESS_BOOK", "BOX",
    ],
    extra: ["DISCOUNT", "SHIPPING_SURCHARGE", "COUNTRY", "REGION", "MARKETPLACE_OFFER"],
    why: "the discounts and shipping-cost admin log the rows they change (SPEC section 3's discount, shippingSurcharge, country, region), and the marketplace logs what it did to each offer",
  },
  "payment provider": {
    table: "paymentDetail",
    column: "provider",
    values: [
      "APPLEPAY", "BANCONTACT", "BANKTRANSFER", "BELFIUS", "CREDITCARD", "DIRECTDEBIT", "EPS", "GIFTCARD",
      "GIROPAY", "IDEAL", "KBC", "KLARNAPAYNOW", "KLARNASLICEIT", "MYBANK", "PAYPAL", "PAYSAFECARD", "SOFORT",
      "ACCOUNT", "EBAY", "BUCKAROO", "STRIPE", "RABO",
    ],
  },
  "config parameter key": {
    table: "configParams",
    column: "param",
    values: [
      "EBAY_ACCESS_TOKEN", "EUR_TO_PHP_EXCHANGE_RATE", "CALC_START_PRODUCTID", "NEXT_PRODUCT_ID",
      "BULK_UPDATE_EBAY_OFFERS_CURRENT_ID", "NAVBAR_BANNER_TEXT", "UPS_ACCESS_TOKEN",
    ],
    extra: ["EBAY_SIGNING_KEY", "SANDBOX_EBAY_SIGNING_KEYS", "EBAY_PRICE_MARKUP_PERCENT", "EBAY_OUT_OF_STOCK"],
    why: "issue 30: eBay's digital signature needs the signing key made once with its Key Management API, kept sealed; the sandbox marketplace keeps the public keys it issued; the eBay price's shop-wide markup and whether a listing ends at 0 are shop settings",
  },
  "discount type": { table: "discount", column: "discountType", values: ["PRODUCT", "GLOBAL", "USER", "COUPON"] },
  "user role": { table: "user", column: "role", values: ["ADMIN", "VIP", "USER"] },
};

// "Prices use a decimal type. Costs are held in euro and Philippine peso." Money: prices, costs, fees, totals and
// amounts; plus the two fractions (a percent discount's value, a surcharge's percentage).
const moneyColumns: Record<string, string[]> = {
  product: ["price", "shippingFee"],
  productTemplate: ["price", "shippingFee"],
  purchaseRecord: ["purchaseCostEuro", "purchaseCostPhp"],
  refund: ["amount", "providerFees"],
  country: ["untrackedCost", "tntCost", "maxOrderUntracked"],
  region: ["maxOrderUntracked"],
  shippingSurcharge: ["minPrice", "maxPrice"],
  orderDetail: ["labelCost"],
  orderItem: ["totalPrice", "totalDiscountAmount"],
  paymentDetail: [
    "total", "providerFees", "additionalShippingFees", "itemTotal", "itemTotalDiscountAmount", "shippingTotal",
  ],
};
const fractionColumns: Record<string, string[]> = { discount: ["value"], shippingSurcharge: ["percentage"] };
/** A column named like money (a price, cost, fee, total or amount) must be a decimal wherever it turns up. */
const moneyName = /(price|cost|costEuro|costPhp|fees?|total|amount)$/i;

type ColumnRow = {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: string;
  column_default: string | null;
  numeric_scale: number | null;
};

const allTables: [string, PgTable][] = [];
for (const [name, value] of Object.entries(schema) as [string, unknown][]) {
  if (is(value, PgTable)) allTables.push([name, value]);
}

function tableOf(name: string): PgTable {
  const table = allTables.find(([exportName]) => exportName === name)?.[1];
  if (!table) throw new Error(`src/server/db/schema does not export a table named ${name}`);
  return table;
}

function columnsOf(name: string): Record<string, PgColumn> {
  return getTableColumns(tableOf(name)) as Record<string, PgColumn>;
}

function sqlTableName(name: string): string {
  return getTableConfig(tableOf(name)).name;
}

describe("schema coverage (SPEC sections 3, 4, 6 and 9)", () => {
  let t: TestDatabase;
  /** table name in the database -> column name -> information_schema row */
  const liveColumns = new Map<string, Map<string, ColumnRow>>();

  beforeAll(async () => {
    t = await createTestDatabase();
    const rows = await queryRows<ColumnRow>(
      t.db,
      sql`select table_name, column_name, data_type, udt_name, is_nullable, column_default, numeric_scale
          from information_schema.columns where table_schema = 'public'`,
    );
    for (const row of rows) {
      const columns = liveColumns.get(row.table_name) ?? new Map<string, ColumnRow>();
      columns.set(row.column_name, row);
      liveColumns.set(row.table_name, columns);
    }
  });

  afterAll(async () => {
    await t?.dispose();
  });

  function liveColumn(table: string, field: string): ColumnRow | undefined {
    return liveColumns.get(sqlTableName(table))?.get(toSnakeCase(field));
  }

  describe("entities and fields (section 3)", () => {
    it.each(Object.entries(specEntities))("%s has every field in the Drizzle schema", (_entity, { table, fields }) => {
      const keys = Object.keys(columnsOf(table));
      const missing = fields.filter((field) => !keys.includes(field));
      expect(missing, `fields missing from schema table ${table}`).toEqual([]);
    });

    it.each(Object.entries(specEntities))("%s has every field in the migrated database", (_entity, { table, fields }) => {
      const sqlName = sqlTableName(table);
      expect(liveColumns.has(sqlName), `table "${sqlName}" exists`).toBe(true);
      const missing = fields.filter((field) => !liveColumn(table, field)).map((field) => `${field} (${toSnakeCase(field)})`);
      expect(missing, `columns missing from table "${sqlName}"`).toEqual([]);
    });

    it("the database has exactly the columns the Drizzle schema declares, for every table", () => {
      for (const [name, table] of allTables) {
        const declared = Object.values(getTableColumns(table)).map((column) => toSnakeCase(column.name)).sort();
        const actual = [...(liveColumns.get(getTableConfig(table).name)?.keys() ?? [])].sort();
        expect(actual, `columns of ${name}: the migrations and the schema disagree (run npm run db:generate)`).toEqual(
          declared,
        );
      }
    });

    it("every table carries createdAt and updatedAt, set by default", () => {
      for (const [name] of allTables) {
        const keys = Object.keys(columnsOf(name));
        expect(keys, `${name} in the schema`).toEqual(expect.arrayContaining(["createdAt", "updatedAt"]));
        for (const field of ["createdAt", "updatedAt"]) {
          const column = liveColumn(name, field);
          expect(column?.data_type, `${name}.${field} in the database`).toBe("timestamp with time zone");
          expect(column?.is_nullable, `${name}.${field} is not null`).toBe("NO");
          expect(column?.column_default, `${name}.${field} has a default`).toMatch(/now\(\)/);
        }
      }
    });
  });

  describe("money is a decimal (section 3: 'Prices use a decimal type')", () => {
    const listed = Object.entries(moneyColumns).flatMap(([table, fields]) => fields.map((field) => [table, field]));

    it.each(listed)("%s.%s is numeric with cents", (table, field) => {
      const column = columnsOf(table)[field];
      expect(column, `${table}.${field} in the schema`).toBeDefined();
      expect(column?.getSQLType()).toMatch(/^numeric/);
      const live = liveColumn(table, field);
      expect(live?.data_type, `${table}.${field} in the database`).toBe("numeric");
      expect(live?.numeric_scale).toBeGreaterThanOrEqual(2);
    });

    it.each(Object.entries(fractionColumns).flatMap(([table, fields]) => fields.map((field) => [table, field])))(
      "%s.%s (a fraction) is numeric",
      (table, field) => {
        expect(columnsOf(table)[field]?.getSQLType()).toMatch(/^numeric/);
        expect(liveColumn(table, field)?.data_type).toBe("numeric");
        expect(liveColumn(table, field)?.numeric_scale).toBeGreaterThanOrEqual(2);
      },
    );

    it("no column named like money (price, cost, fee, total, amount) is anything but numeric", () => {
      const offenders: string[] = [];
      for (const [name, table] of allTables) {
        for (const [key, column] of Object.entries(getTableColumns(table))) {
          if (!moneyName.test(key)) continue;
          const live = liveColumn(name, key);
          if (!column.getSQLType().startsWith("numeric") || live?.data_type !== "numeric") {
            offenders.push(`${name}.${key} (${column.getSQLType()} / ${live?.data_type ?? "missing"})`);
          }
        }
      }
      expect(offenders).toEqual([]);
    });
  });

  describe("enumerated values (sections 3, 4, 6 and 9)", () => {
    let pgEnums: Map<string, string[]>;

    beforeAll(async () => {
      const rows = await queryRows<{ typname: string; enumlabel: string }>(
        t.db,
        sql`select t.typname, e.enumlabel
            from pg_type t join pg_enum e on e.enumtypid = t.oid join pg_namespace n on n.oid = t.typnamespace
            where n.nspname = 'public' order by t.typname, e.enumsortorder`,
      );
      pgEnums = new Map();
      for (const row of rows) pgEnums.set(row.typname, [...(pgEnums.get(row.typname) ?? []), row.enumlabel]);
    });

    it.each(Object.entries(specEnums))("%s: the schema column takes every SPEC value", (_name, spec) => {
      const column = columnsOf(spec.table)[spec.column];
      expect(column, `${spec.table}.${spec.column} in the schema`).toBeDefined();
      const values = column?.enumValues ?? [];
      expect(new Set(values)).toEqual(new Set([...spec.values, ...(spec.extra ?? [])]));
    });

    it.each(Object.entries(specEnums))("%s: the database enum holds every SPEC value", (_name, spec) => {
      const live = liveColumn(spec.table, spec.column);
      expect(live?.data_type, `${spec.table}.${spec.column} in the database is an enum`).toBe("USER-DEFINED");
      const labels = pgEnums.get(live?.udt_name ?? "") ?? [];
      const missing = spec.values.filter((value) => !labels.includes(value));
      expect(missing, `values missing from pg enum ${live?.udt_name}`).toEqual([]);
      // Nothing beyond SPEC, except what is written down above with its reason.
      const beyond = labels.filter((label) => !spec.values.includes(label));
      expect(beyond, spec.why ?? "values that SPEC does not name").toEqual(spec.extra ?? []);
    });
  });
});
