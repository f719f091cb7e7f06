import { SurchargeBandCreate } from "@/features/admin/shipping/surcharge-band-create";

export const metadata = { title: "New surcharge" };

export default function NewSurchargePage() {
  return <SurchargeBandCreate />;
}
