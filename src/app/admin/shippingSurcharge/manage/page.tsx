import { SurchargeBandsEditor } from "@/features/admin/shipping-costs/surcharge-bands-editor";

export const metadata = { title: "Manage surcharges" };

export default function ManageSurchargesPage() {
  return <SurchargeBandsEditor />;
}
