import { env } from "@/env";
import { SecurityView } from "@/features/admin/auth/security-view";

export const metadata = { title: "Sign-in security" };

export default function SecurityPage() {
  return <SecurityView shopName={env.SHOP_NAME} />;
}
