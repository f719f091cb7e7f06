import { Suspense } from "react";
import { BucketUpload } from "@/features/admin/storage/bucket-views";

export const metadata = { title: "Upload to the bucket" };

export default function BucketUploadPage() {
  return (
    <Suspense>
      <BucketUpload />
    </Suspense>
  );
}
