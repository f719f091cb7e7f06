import type { ShippingMethod } from "@/lib/enums";
import { addressFields, addressLines, addressLineTexts } from "@/server/account/schemas";
import {
  manualOrderPaymentMethods,
  manualOrderQuoteLineInput,
  type CreateManualOrderInput,
  type EditableManualOrder,
  type ManualOrderAddressValues,
  type ManualOrderPaymentMethod,
  type ManualOrderQuoteInput,
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
  email: "", lines: [], shippingMethod: "TNT", waiveShipping: false, shipOn: "", paymentMethod: "", paid: true,
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
    shippingMethod: values.shippingMethod as ShippingMethod,
    waiveShipping: values.waiveShipping,
    shipOn: values.shipOn,
  };
}

export const createInputOf =
  (userId: string | null) =>
  (values: ManualOrderFormValues): CreateManualOrderInput => ({ userId, ...orderInputOf(values), paymentMethod: values.paymentMethod as ManualOrderPaymentMethod, paid: values.paid });

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
    paid: values.paid,
  };
}
