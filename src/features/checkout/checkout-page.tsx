"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { TRPCClientError } from "@trpc/client";
import { Loader2, ShoppingBag } from "lucide-react";
import { useSession } from "next-auth/react";
import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { FormProvider, useForm, useWatch, type FieldErrors, type Resolver } from "react-hook-form";
import { toast } from "@/components/toast";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { useAddresses } from "@/features/account/queries";
import { useCart } from "@/features/cart/cart-context";
import { useLocalCartItems, writeLocalCart } from "@/features/cart/cart-storage";
import { preselectedCountry } from "@/lib/preselected-country";
import { checkoutFormInput, type CheckoutFormInput, type CheckoutFormValues } from "@/server/checkout/schemas";
import type { ShippingCountry } from "@/server/shipping/schemas";
import { AddressSection, addressFromBook, emptyAddress } from "./address-section";
import { OrderSummary } from "./order-summary";
import { PaymentSection } from "./payment-section";
import { useCheckoutQuote, usePlaceOrder, useShippingCountries } from "./queries";
import { ShippingSection } from "./shipping-section";

/** The country a new address starts with: the guess the visitor token kept, within the rule of `preselectedCountry`. */
function guessedCountry(countries: ShippingCountry[]): string {
  return preselectedCountry(countries, window.localStorage.getItem("countryCode"));
}

function messageOf(error: unknown): string {
  return error instanceof TRPCClientError || error instanceof Error ? error.message : "Something went wrong; please try again.";
}

/** The form schema, plus the rule that needs the country list: a country with states or provinces needs one. */
function checkoutResolver(countries: ShippingCountry[]): Resolver<CheckoutFormInput, unknown, CheckoutFormValues> {
  const base = zodResolver(checkoutFormInput);
  return async (values, context, options) => {
    const result = await base(values, context, options);
    const regions = countries.find((c) => c.code === values.address?.countryCode)?.regions ?? [];
    if (regions.length === 0 || values.address?.stateCode) return result;
    const errors = { ...result.errors } as FieldErrors<CheckoutFormInput>;
    errors.address = { ...errors.address, stateCode: { type: "required", message: "Choose a state or province" } };
    return { values: {}, errors };
  };
}

/**
 * The checkout (SPEC section 2, /checkout): contact, delivery address, shipping method, payment method and the
 * order summary, for signed-in customers and guests. The server prices everything again when the order is placed;
 * what shows here is its quote for the chosen destination. Placing the order takes the buyer to the payment page.
 */
export function CheckoutPage() {
  const { data: session, status } = useSession();
  const isSignedIn = status === "authenticated";
  const { cart: cartInDrawer, couponCode: couponInDrawer } = useCart();
  const localItems = useLocalCartItems();
  const items = useMemo(() => (isSignedIn ? [] : localItems.map(({ productId, quantity }) => ({ productId, quantity }))), [isSignedIn, localItems]);

  const countries = useShippingCountries();
  const addresses = useAddresses({ enabled: isSignedIn });

  const countryList = countries.data;
  const resolver = useMemo(() => checkoutResolver(countryList ?? []), [countryList]);
  const form = useForm<CheckoutFormInput, unknown, CheckoutFormValues>({
    resolver,
    mode: "onTouched",
    defaultValues: { email: "", address: emptyAddress(""), saveAddress: false, couponCode: "" },
  });
  const savedAddresses = addresses.data;
  const preferredAddress = savedAddresses?.find((a) => a.isDefault) ?? savedAddresses?.[0];
  // Until the buyer picks, the default address from the address book is the one in use.
  const [pickedAddress, setPickedAddress] = useState<number | "new" | null>(null);
  const choice = pickedAddress ?? (isSignedIn && preferredAddress ? preferredAddress.id : "new");
  const [fixingSaved, setFixingSaved] = useState(false);
  // A code applied in the cart drawer carries over.
  const [appliedCoupon, setAppliedCoupon] = useState<string | null>(couponInDrawer);
  const [formError, setFormError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const prefilled = useRef({ email: false, address: false });

  // Fill in what the shop already knows, once: the customer's e-mail and default address, or the guessed country.
  const sessionEmail = session?.user?.email;
  useEffect(() => {
    if (prefilled.current.email || !sessionEmail) return;
    prefilled.current.email = true;
    if (!form.getValues("email")) form.setValue("email", sessionEmail);
  }, [sessionEmail, form]);
  useEffect(() => {
    if (prefilled.current.address || !countryList || status === "loading") return;
    if (isSignedIn && !savedAddresses) return;
    prefilled.current.address = true;
    if (isSignedIn && preferredAddress) form.setValue("address", addressFromBook(preferredAddress, countryList));
    else if (!form.getValues("address.countryCode")) form.setValue("address.countryCode", guessedCountry(countryList));
  }, [countryList, savedAddresses, preferredAddress, isSignedIn, status, form]);

  const chooseAddress = (next: number | "new") => {
    setPickedAddress(next);
    setFixingSaved(false);
    const saved = savedAddresses?.find((a) => a.id === next);
    const list = countryList ?? [];
    form.setValue("address", saved ? addressFromBook(saved, list) : emptyAddress(guessedCountry(list)));
    form.setValue("saveAddress", false);
    form.clearErrors("address");
  };

  const countryCode = useWatch({ control: form.control, name: "address.countryCode" });
  const stateCode = useWatch({ control: form.control, name: "address.stateCode" }) ?? "";
  const regions = countryList?.find((c) => c.code === countryCode)?.regions ?? [];
  const waitingFor = !countryCode
    ? "Choose your country above to see the shipping methods and what they cost."
    : regions.length > 0 && !stateCode
      ? "Choose your state or province above to see the shipping methods."
      : null;

  const quoteInput = {
    countryCode: waitingFor ? undefined : countryCode,
    stateCode: waitingFor || !stateCode ? undefined : stateCode,
    couponCode: appliedCoupon ?? undefined,
    items,
  };
  const hasItems = isSignedIn ? (cartInDrawer?.items.length ?? 0) > 0 : localItems.length > 0;
  const quote = useCheckoutQuote(quoteInput, status !== "loading" && hasItems);
  const quoted = quote.isPlaceholderData ? null : quote.data;
  const validatingCoupon = quote.isFetching && quote.data !== undefined && (quote.data.cart.coupon?.code ?? null) !== appliedCoupon && appliedCoupon !== null;

  // A method that the new destination or order value does not allow is no longer chosen.
  const method = useWatch({ control: form.control, name: "shippingMethod" });
  const options = quoted?.shipping?.options;
  useEffect(() => {
    if (!method || !options) return;
    if (!options.some((option) => option.method === method && option.available)) form.resetField("shippingMethod", { defaultValue: undefined });
  }, [method, options, form]);
  // The quote has totals only for the methods the destination allows.
  const chosenTotals = quoted?.totals.find((entry) => entry.method === method) ?? null;

  const place = usePlaceOrder();

  const onValid = async (values: CheckoutFormValues) => {
    setFormError(null);
    const cart = quote.data?.cart;
    if (appliedCoupon && !cart?.coupon) {
      setFormError(`The code ${appliedCoupon} does not apply to this order; remove it or enter another.`);
      return;
    }
    try {
      const placed = await place.mutateAsync({ ...values, couponCode: appliedCoupon ?? undefined, items });
      setLeaving(true);
      // The order holds the pieces now; a guest's cart would otherwise offer them again.
      if (!isSignedIn) writeLocalCart([]);
      window.location.assign(placed.checkoutUrl);
    } catch (error) {
      const message = messageOf(error);
      setFormError(message);
      void quote.refetch();
    }
  };
  const onInvalid = (errors: FieldErrors<CheckoutFormInput>) => {
    if (errors.address && choice !== "new") setFixingSaved(true);
    toast.error("Please check the highlighted fields");
  };

  if (leaving) {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center gap-3 px-4 py-24 text-center">
        <Loader2 className="size-8 animate-spin text-primary" aria-hidden />
        <p className="font-serif text-xl font-semibold">Taking you to the payment page...</p>
      </div>
    );
  }

  const cart = quote.data?.cart ?? cartInDrawer;
  const heading = <h1 className="mb-6 font-serif text-3xl font-semibold">Checkout</h1>;
  if (status === "loading" || (hasItems && !cart) || (cart === null && !hasItems)) {
    return (
      <div className="mx-auto max-w-6xl px-4 pt-8 pb-28 sm:px-6 lg:pb-16" aria-busy>
        {heading}
        <div className="grid gap-6 lg:grid-cols-[1fr_24rem]">
          <Skeleton className="h-[32rem]" />
          <Skeleton className="h-80" />
        </div>
      </div>
    );
  }
  if (!hasItems || !cart || cart.items.length === 0) {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center gap-3 px-4 pt-16 pb-28 text-center">
        <ShoppingBag className="size-10 text-primary" aria-hidden />
        <h1 className="font-serif text-2xl font-semibold">Your cart is empty</h1>
        <p className="text-sm text-muted-foreground">Add a watch or a part to your cart, then come back here to order it.</p>
        <Button asChild variant="outline" className="mt-2">
          <Link href="/">Browse new arrivals</Link>
        </Button>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-6xl px-4 pt-8 pb-28 sm:px-6 lg:pb-16">
      {heading}
      <FormProvider {...form}>
        <div className="grid items-start gap-6 lg:grid-cols-[1fr_24rem]">
          <form id="checkout-form" noValidate className="flex flex-col gap-6" onSubmit={form.handleSubmit(onValid, onInvalid)}>
            <AddressSection
              isSignedIn={isSignedIn}
              countries={countryList}
              savedAddresses={savedAddresses ?? []}
              choice={choice}
              onChoose={chooseAddress}
              showFields={choice === "new" || fixingSaved}
            />
            <ShippingSection
              shipping={quoted?.shipping ?? null}
              waitingFor={waitingFor}
              loading={quote.isFetching && !quoted}
              error={quote.error && !waitingFor ? messageOf(quote.error) : null}
            />
            <PaymentSection />
          </form>
          <OrderSummary
            cart={cart}
            shipping={chosenTotals}
            appliedCoupon={appliedCoupon}
            validatingCoupon={validatingCoupon}
            onApplyCoupon={(code) => setAppliedCoupon(code.toUpperCase())}
            onRemoveCoupon={() => setAppliedCoupon(null)}
            placing={place.isPending}
            formError={formError}
          />
        </div>
      </FormProvider>
    </div>
  );
}
