import { OverviewView } from "@/features/admin/ebay/overview-view";

export const metadata = { title: "eBay" };

export default function EbayOverviewPage() {
  return <OverviewView />;
}
