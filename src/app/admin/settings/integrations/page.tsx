import { IntegrationsView } from "@/features/admin/integrations/integrations-view";

export const metadata = { title: "Integrations" };

export default function IntegrationsPage() {
  return <IntegrationsView />;
}
