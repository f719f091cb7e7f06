import { Suspense } from "react";
import { ShippingCalendar } from "@/features/admin/shipping/shipping-calendar";

export const metadata = { title: "Shipping calendar" };

export default function ShippingCalendarPage() {
  return (
    <Suspense>
      <ShippingCalendar />
    </Suspense>
  );
}
