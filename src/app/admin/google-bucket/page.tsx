import { Suspense } from "react";
import { BucketBrowser } from "@/features/admin/bucket/bucket-views";

export const metadata = { title: "Google bucket" };

export default function BucketPage() {
  return (
    <Suspense>
      <BucketBrowser />
    </Suspense>
  );
}
