import type { UserRole } from "@/lib/enums";

// The session Auth.js hands the browser carries the shop's user (the session callback in src/server/auth/config.ts).
declare module "@auth/core/types" {
  interface Session {
    user: { id: string; name: string | null; email: string; image: string | null; role: UserRole };
  }
}
