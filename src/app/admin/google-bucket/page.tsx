import { Suspense } from "react";
import { BucketBrowser } from "@/features/admin/storage/bucket-views";

export const metadata = { title: "Google bucket" };

export default function BucketPage() {
  return (
    <Suspense>
      <BucketBrowser />
    </Suspense>
  );
}
