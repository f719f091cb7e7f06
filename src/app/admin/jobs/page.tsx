import { JobsView } from "@/features/admin/jobs/jobs-view";

export const metadata = { title: "Jobs" };

export default function JobsPage() {
  return <JobsView />;
}
