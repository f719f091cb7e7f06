import "server-only";
import { cachedForVisitors, catalogueTags } from "@/server/cache/catalogue";
import { getNavbarData } from "./service";

/** The banner and both menus from cache, as every page's layout shows them. */
export const cachedNavbarData = cachedForVisitors("navbar", getNavbarData, () => [catalogueTags.menus]);
