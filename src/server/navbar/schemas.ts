import { z } from "zod";

/** The procedure takes nothing; an empty object (or nothing) is accepted. */
export const getNavbarDataInput = z.object({}).strict().optional();

/** One entry of a navigation menu (SPEC section 3); an entry without `href` leads to /404. */
export type MenuItem = { id: number; name: string; href?: string; children?: MenuItem[] };

export type NavbarData = {
  navbarBannerText?: string;
  /** The top-level manufacturer groups; the desktop menu lists the children of the first one (the brands). */
  manufacturers: MenuItem[];
  categories: MenuItem[];
};
