import type { Metadata } from "next";
import { AddressBook } from "@/features/account/address-book";
import { requireSession } from "@/server/auth/require-session";

export const metadata: Metadata = { title: "Address book", robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function AddressesPage() {
  await requireSession("/account/addresses");
  return <AddressBook />;
}
