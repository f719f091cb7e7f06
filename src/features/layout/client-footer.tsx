"use client";

import dynamic from "next/dynamic";

/** The footer is loaded on the client only (SPEC section 2); it is below the fold and needs no server rendering. */
export const ClientFooter = dynamic(() => import("./footer"), { ssr: false });
