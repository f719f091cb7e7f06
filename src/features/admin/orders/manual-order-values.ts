import type { DeliveryMethod, ShippingMethod } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import { addressFields, addressLines, addressLineTexts } from "@/server/account/schemas";
import {
  manualOrderPaymentMethods,
  manualOrderQuoteLineInput,
  type CreateCounterSaleInput,
  type CreateManualOrderInput,
  type EditableManualOrder,
  type ManualOrderAddressValues,
  type ManualOrderPaymentMethod,
  type ManualOrderQuote,
  type ManualOrderQuoteInput,
  type ManualOrderSaved,
  type UpdateManualOrderInput,
} from "@/server/orders/manual-order-schemas";
import type { ManualOrderFormLine } from "./manual-order-lines";

// The manual order form's values and what it sends of them, apart from its React.

/** The form's values: the address flat, so SPEC section 5's required check sees each field. */
export type ManualOrderFormValues = ManualOrderAddressValues & {
  email: string;
  lines: ManualOrderFormLine[];
  shippingMethod: ShippingMethod | "";
  waiveShipping: boolean;
  shipOn: string;
  paymentMethod: ManualOrderPaymentMethod | "";
  paid: boolean;
};

/** The address's fields as the form holds them (flat), in the order an order's address sends them. */
export const orderAddressFields = [...addressLines, "countryCode", "stateCode", "phoneNumber"] as const satisfies readonly (keyof ManualOrderAddressValues)[];

/** What SPEC section 5's check wants filled before the schema is asked: the address's required fields and the order's. */
export const requiredForBoth = [...addressLines.filter((line) => addressFields[line].required), "countryCode", "email", "lines", "shippingMethod"] as const;
export const requiredToCreate = [...requiredForBoth, "paymentMethod"] as const;
/** A counter sale collected in the shop needs only whom the invoice is made out to, the lines and how it was paid. */
export const requiredForCounterSale = ["firstName", "lastName", "lines", "paymentMethod"] as const;

/** Whether the form holds a counter sale: collected in the shop, with no address and no shipping. */
export const isCounterSale = (values: Pick<ManualOrderFormValues, "shippingMethod">) => values.shippingMethod === "COLLECTED";

/** The labels the form shows, and names a refused field by: the address's own, and the e-mail's. */
export const fieldLabels: Record<(typeof orderAddressFields)[number] | "email", string> = {
  ...(Object.fromEntries(addressLines.map((line) => [line, addressFields[line].label])) as Record<(typeof addressLines)[number], string>),
  countryCode: addressFields.countryCode.label,
  stateCode: addressFields.state.label,
  phoneNumber: addressFields.phoneNumber.label,
  email: "E-mail",
};

const blank: ManualOrderFormValues = {
  ...addressLineTexts(null), countryCode: "NL", stateCode: "", phoneNumber: "",
  // A phone order starts unpaid: staff tick "the money is in" when it is; a counter sale is paid at the counter.
  email: "", lines: [], shippingMethod: "TNT", waiveShipping: false, shipOn: "", paymentMethod: "", paid: false,
};

/**
 * What "Mark paid" offers first: the method the order was taken with, so that marking it paid never changes how it
 * was paid unless staff choose another; bank transfer for an order taken another way.
 */
export function markPaidMethodOf(order: EditableManualOrder): ManualOrderPaymentMethod {
  return manualOrderPaymentMethods.find((method) => method === order.paymentMethod) ?? "BANKTRANSFER";
}

export function valuesOf(order: EditableManualOrder | undefined): ManualOrderFormValues {
  if (!order) return blank;
  return {
    ...blank,
    ...order.address,
    email: order.email,
    lines: order.lines.map((line) => ({ productId: line.productId, name: line.name, quantity: line.quantity, priceOverride: "", priceOverrideReason: "", soldReason: line.priceOverrideReason })),
    shippingMethod: order.shippingMethod,
    waiveShipping: order.waiveShipping,
    shipOn: order.shipOn,
  };
}

/** What creating and saving send alike: the address, the lines and the shipping. */
function orderInputOf(values: ManualOrderFormValues) {
  return {
    address: Object.fromEntries(orderAddressFields.map((field) => [field, values[field]])) as ManualOrderAddressValues,
    email: values.email,
    lines: values.lines.map(({ productId, quantity, priceOverride, priceOverrideReason }) => ({ productId, quantity, priceOverride, priceOverrideReason })),
    shippingMethod: values.shippingMethod as DeliveryMethod,
    waiveShipping: values.waiveShipping,
    shipOn: values.shipOn,
  };
}

export const createInputOf =
  (userId: string | null) =>
  (values: ManualOrderFormValues): CreateManualOrderInput => ({ userId, ...orderInputOf(values), paymentMethod: values.paymentMethod as ManualOrderPaymentMethod, paid: values.paid });

export const counterSaleInputOf =
  (userId: string | null) =>
  (values: ManualOrderFormValues): CreateCounterSaleInput => ({
    userId,
    buyer: { firstName: values.firstName, lastName: values.lastName, companyName: values.companyName, phoneNumber: values.phoneNumber },
    email: values.email,
    lines: orderInputOf(values).lines,
    paymentMethod: values.paymentMethod as ManualOrderPaymentMethod,
  });

export const updateInputOf =
  (orderNumber: string) =>
  (values: ManualOrderFormValues): UpdateManualOrderInput => ({ orderNumber, ...orderInputOf(values) });

/** What the preview can price of the form as it stands: each complete line (an unfinished override left out). */
export function quoteInputOf(values: ManualOrderFormValues, orderNumber: string | undefined): ManualOrderQuoteInput | null {
  const lines = values.lines.flatMap(({ productId, quantity, priceOverride }) => {
    const withOverride = manualOrderQuoteLineInput.safeParse({ productId, quantity, priceOverride });
    if (withOverride.success) return [{ productId, quantity, priceOverride: priceOverride || undefined }];
    return manualOrderQuoteLineInput.safeParse({ productId, quantity }).success ? [{ productId, quantity }] : [];
  });
  if (lines.length === 0 && !orderNumber) return null;
  return {
    orderNumber,
    lines,
    countryCode: values.countryCode || undefined,
    stateCode: values.stateCode || undefined,
    shippingMethod: values.shippingMethod || "TNT",
    waiveShipping: values.waiveShipping,
    shipOn: values.shipOn || undefined,
    paid: isCounterSale(values) || values.paid,
  };
}

/**
 * What the toast says after an edit was saved. An order not paid yet that comes to cost less needs no refund: the
 * customer simply pays less; a paid one does, under Refunds on the order page.
 */
export function savedEditMessage(saved: ManualOrderSaved): string {
  const { orderNumber, total, previousTotal } = saved;
  const difference = previousTotal ? total.minus(previousTotal) : null;
  if (!difference || difference.isZero()) return `${orderNumber} is up to date.`;
  const change = `${formatEuro(difference.abs())} ${difference.isNegative() ? "less" : "more"}`;
  if (!saved.wasPaid) return `${orderNumber}: the customer will pay ${change}, ${formatEuro(total)} instead of ${formatEuro(previousTotal!)}.`;
  return `${orderNumber}: total ${formatEuro(total)}; the customer paid ${formatEuro(previousTotal!)}: refund the difference of ${formatEuro(difference.abs())} under Refunds on the order page.`;
}

/** A row of the totals beside the form: its label, its amount as shown, and whether it is the total. */
export type SummaryRow = { label: string; amount: string; strong?: boolean };

/**
 * The totals beside the form, as the server priced them. A line charged above its list price shows as "Above list
 * price +€…", never as a negative discount; a counter sale shows no shipping.
 */
export function summaryRows(quote: ManualOrderQuote): SummaryRow[] {
  const { totals } = quote;
  const rows: SummaryRow[] = [{ label: "Items at list price", amount: formatEuro(totals.items.minus(quote.aboveList)) }];
  if (!quote.aboveList.isZero()) rows.push({ label: "Above list price", amount: `+${formatEuro(quote.aboveList)}` });
  if (!totals.discount.isZero()) rows.push({ label: "Discount", amount: `−${formatEuro(totals.discount)}` });
  if (quote.collected) rows.push({ label: "Collected in the shop", amount: "no shipping" });
  else {
    const method = quote.shipping ? ` (${quote.shipping.method === "TNT" ? "tracked" : "untracked"})` : "";
    rows.push({ label: `Shipping${method}`, amount: quote.shipping?.waived ? "waived" : formatEuro(totals.shipping) });
  }
  if (!totals.surcharge.isZero()) rows.push({ label: "Insurance surcharge", amount: formatEuro(totals.surcharge) });
  rows.push({ label: "Total", amount: formatEuro(totals.total), strong: true });
  return rows;
}
