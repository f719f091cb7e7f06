/**
 * Every enumerated value of the shop (SPEC sections 3, 4 and 9), shared by the database schema, the server and the
 * browser. The database enums are built from these lists, so a value exists in exactly one place.
 */

export const userRoles = ["ADMIN", "VIP", "USER"] as const;
export type UserRole = (typeof userRoles)[number];

export const calibers = ["HANDWIND", "QUARTZ_ELECTRONIC_KINETIC", "CHRONOGRAPH", "AUTOMATIC", "UNKNOWN"] as const;
export type Caliber = (typeof calibers)[number];

export const productStates = ["NEW", "USED", "UNKNOWN"] as const;
export type ProductState = (typeof productStates)[number];

export const genders = ["MENS", "LADIES", "UNISEX", "UNKNOWN"] as const;
export type Gender = (typeof genders)[number];

export const itemTypes = [
  "BALANCE_WHEEL", "BATTERY", "BARREL", "BEZEL", "BEZEL_INSERT", "BRACELET", "BRACELET_LINKS", "BRIDGE",
  "BUCKLE_CLASP_CLIP", "CASE", "CASE_BACK", "CASING_CLAMP", "CRYSTAL", "CRYSTAL_REPAIR_SET", "CROWN", "CROWN_SET",
  "DAY_DATE_COMPONENT", "DIAL", "DIAL_CLAMP", "DIAL_HANDS_SET", "DISC", "DIVERS_WATCH", "GEARS_AND_WHEELS", "GASKET",
  "HANDS_SET", "HOUR_HAND", "LEATHER_STRAP", "MAIN_PLATE", "MINUTE_HAND", "MINUTE_TRACK", "MOVEMENT", "MOVEMENT_PART",
  "OTHER_STRAP", "PALLET_FORK_ESCAPE_WHEEL", "POCKET_WATCH", "POLISHING_POWDER", "PROTECTOR", "PUSHER", "ROTOR",
  "SCREWS", "SECOND_HAND", "SPRING", "SPRINGBAR", "STEM", "STOPWATCH", "STICKERS", "TUBE", "TWEEZERS",
  "VARIOUS_PARTS", "WRISTWATCH", "AUTOMATIC", "HANDWINDER", "QUARTZ_ELECTRONIC_KINETIC", "CHRONOGRAPH", "HANDS",
  "UNKNOWN",
] as const;
export type ItemType = (typeof itemTypes)[number];

export const orderStatuses = [
  "PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED", "SHIPPED", "CANCELLED",
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const boxStatuses = ["OPEN", "SHIPPED", "EXPLODED"] as const;
export type BoxStatus = (typeof boxStatuses)[number];

/**
 * SPEC names APPROVED and REJECTED; the restock manager's routes also show the PENDING state a request starts in, and
 * an approved request is RECEIVED once its pieces are in stock (a box exploded, a correction booked), so nobody buys
 * them twice.
 */
export const restockStatuses = ["PENDING", "APPROVED", "REJECTED", "RECEIVED"] as const;
export type RestockStatus = (typeof restockStatuses)[number];

export const stockRecordTypes = ["PURCHASE_RECORD", "ORDER_ITEM", "REFUND", "INVENTORY_CORRECTION"] as const;
export type StockRecordType = (typeof stockRecordTypes)[number];

export const inventoryCorrectionReasons = ["DAMAGED", "LOST", "OTHER"] as const;
export type InventoryCorrectionReason = (typeof inventoryCorrectionReasons)[number];

export const refundTypes = ["SHIPPING", "PRODUCT"] as const;
export type RefundType = (typeof refundTypes)[number];

export const refundReasons = ["LOST_IN_TRANSIT", "DAMAGED", "WRONG_ITEM", "WRONG_ADDRESS", "OTHER"] as const;
export type RefundReason = (typeof refundReasons)[number];

/**
 * Where a refund's money stands: PENDING while the provider has it (or we have not heard back), REFUNDED once the
 * provider paid it out (or, with no provider, once staff recorded it), FAILED when the provider refused it.
 */
export const refundStatuses = ["PENDING", "REFUNDED", "FAILED"] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** The refunds whose money went back or is on its way; a FAILED one gave nothing back. */
export const moneyBackRefundStatuses = ["PENDING", "REFUNDED"] as const satisfies readonly RefundStatus[];

/** Notification severity and logbook level share one scale. */
export const severities = ["INFO", "WARNING", "ERROR"] as const;
export type Severity = (typeof severities)[number];

export const pricingTypes = ["PERCENT", "FIXED"] as const;
export type PricingType = (typeof pricingTypes)[number];

export const discountTypes = ["PRODUCT", "GLOBAL", "USER", "COUPON"] as const;
export type DiscountType = (typeof discountTypes)[number];

/** How a parcel goes out: by post untracked, or tracked (the enum keeps the old name TNT; people read "Tracked parcel", whatever carrier takes it). */
export const deliveryMethods = ["UNTRACKED", "TNT"] as const;
export type DeliveryMethod = (typeof deliveryMethods)[number];

/** How an order leaves the shop: one of the delivery methods, or COLLECTED in the shop by the customer (a counter sale). */
export const shippingMethods = [...deliveryMethods, "COLLECTED"] as const;
export type ShippingMethod = (typeof shippingMethods)[number];

export const shops = ["EBAY", "WEBSHOP"] as const;
export type Shop = (typeof shops)[number];

/** Where the owner's figures say an order was sold: on the web shop, on eBay, or by staff (a manual order or a counter sale). */
export const salesChannels = ["WEBSHOP", "EBAY", "MANUAL"] as const;
export type SalesChannel = (typeof salesChannels)[number];

export const carriers = ["POSTNL", "UPS"] as const;
export type Carrier = (typeof carriers)[number];

export const notificationTypes = ["DEPLOYMENT", "EBAY_ORDER", "ORDER", "REFUND", "OTHER"] as const;
export type NotificationType = (typeof notificationTypes)[number];

export const logEventTypes = [
  "STOCK_CHANGE", "ORDER", "REFUND", "PRODUCT", "DEPLOY", "ADDRESS", "EBAY_API", "WEBHOOK", "EMAIL", "HEALTH_CHECK",
  "DISCOUNT", "SHIPPING_COST", "SECURITY", "CUSTOMER",
] as const;
export type LogEventType = (typeof logEventTypes)[number];

export const logEntityTypes = [
  "PRODUCT", "ORDER", "ORDER_ITEM", "ORDER_DETAIL", "PAYMENT_DETAIL", "ORDER_ADDRESS", "REFUND", "SALES_RECORD",
  "USER", "PURCHASE_RECORD", "ADDRESS_BOOK", "BOX", "DISCOUNT", "SHIPPING_SURCHARGE", "COUNTRY", "REGION",
  "MARKETPLACE_OFFER",
] as const;
export type LogEntityType = (typeof logEntityTypes)[number];

export const paymentProviders = [
  "APPLEPAY", "BANCONTACT", "BANKTRANSFER", "BELFIUS", "CREDITCARD", "DIRECTDEBIT", "EPS", "GIFTCARD", "GIROPAY",
  "IDEAL", "KBC", "KLARNAPAYNOW", "KLARNASLICEIT", "MYBANK", "PAYPAL", "PAYSAFECARD", "SOFORT", "ACCOUNT", "EBAY",
  "BUCKAROO", "STRIPE", "RABO",
] as const;
export type PaymentProvider = (typeof paymentProviders)[number];

export const configParamKeys = [
  "EBAY_ACCESS_TOKEN", "EUR_TO_PHP_EXCHANGE_RATE", "CALC_START_PRODUCTID", "NEXT_PRODUCT_ID",
  "BULK_UPDATE_EBAY_OFFERS_CURRENT_ID", "NAVBAR_BANNER_TEXT", "UPS_ACCESS_TOKEN", "EBAY_SIGNING_KEY", "SANDBOX_EBAY_SIGNING_KEYS",
  "EBAY_PRICE_MARKUP_PERCENT", "EBAY_OUT_OF_STOCK",
] as const;
export type ConfigParamKey = (typeof configParamKeys)[number];

/**
 * Where a product's marketplace offer stands: created on the marketplace but not listed (UNPUBLISHED), listed
 * (PUBLISHED, with a listing id), or taken off after being listed (WITHDRAWN; publishing again gives a new listing).
 */
export const marketplaceOfferStatuses = ["UNPUBLISHED", "PUBLISHED", "WITHDRAWN"] as const;
export type MarketplaceOfferStatus = (typeof marketplaceOfferStatuses)[number];

/**
 * Why a withdrawn offer's listing ended: staff withdrew it (STAFF), the shop ended it when stock reached 0 and relists
 * it when stock returns (OUT_OF_STOCK), or eBay had ended it itself, found on withdrawing (MARKETPLACE).
 */
export const marketplaceEndReasons = ["STAFF", "OUT_OF_STOCK", "MARKETPLACE"] as const;
export type MarketplaceEndReason = (typeof marketplaceEndReasons)[number];

/** What the marketplace listing does when stock reaches 0: ended (and relisted when stock returns), or kept at 0. */
export const outOfStockActions = ["END", "KEEP"] as const;
export type OutOfStockAction = (typeof outOfStockActions)[number];

/** The marketplace sites an offer can be on; one per SKU, since eBay refuses a SKU on two of them. */
export const marketplaceIds = ["EBAY_NL", "EBAY_DE"] as const;
export type MarketplaceId = (typeof marketplaceIds)[number];

/** A bulk update of all marketplace offers: running (or stopped by a restart, to be continued), done, or cancelled. */
export const bulkRunStatuses = ["RUNNING", "DONE", "CANCELLED"] as const;
export type BulkRunStatus = (typeof bulkRunStatuses)[number];

/** Whether a product is offered on a sales channel (the web shop, the marketplace). */
export const listingStatuses = ["ONLINE", "OFFLINE"] as const;
export type ListingStatus = (typeof listingStatuses)[number];

export const themes = ["light", "dark", "system"] as const;
export type Theme = (typeof themes)[number];

export const environmentNames = ["development", "staging", "production"] as const;
export type EnvironmentName = (typeof environmentNames)[number];
