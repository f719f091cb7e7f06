import { SurchargeBandsEditor } from "@/features/admin/shipping/surcharge-bands-editor";

export const metadata = { title: "Manage surcharges" };

export default function ManageSurchargesPage() {
  return <SurchargeBandsEditor />;
}
