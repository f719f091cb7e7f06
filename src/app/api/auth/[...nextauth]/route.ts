export { GET, POST } from "@/server/auth/auth";

export const dynamic = "force-dynamic";
