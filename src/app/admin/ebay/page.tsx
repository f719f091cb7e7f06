import { OverviewView } from "@/features/admin/marketplace/overview-view";

export const metadata = { title: "eBay" };

export default function EbayOverviewPage() {
  return <OverviewView />;
}
