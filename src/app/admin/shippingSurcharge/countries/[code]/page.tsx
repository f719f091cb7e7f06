import { notFound } from "next/navigation";
import { CountryCostsForm } from "@/features/admin/shipping/country-costs-form";

export async function generateMetadata({ params }: { params: Promise<{ code: string }> }) {
  return { title: `Shipping to ${(await params).code.toUpperCase()}` };
}

export default async function ShippingCountryPage({ params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  if (!/^[A-Za-z]{2}$/.test(code)) notFound();
  return <CountryCostsForm code={code.toUpperCase()} />;
}
