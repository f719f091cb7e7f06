"use client";

import { Settings } from "lucide-react";
import { lazy } from "react";
import { LoadOnUse } from "@/components/load-on-use";
import { Button } from "@/components/ui/button";

const loadMenu = () => import("./settings-menu");
const SettingsMenu = lazy(loadMenu);

/** The navbar's settings item (theme and listing layout); the menu loads on first use. */
export function SettingsPanel() {
  return (
    <LoadOnUse
      preload={loadMenu}
      trigger={
        <Button variant="ghost" size="icon" aria-label="Settings">
          <Settings aria-hidden="true" />
        </Button>
      }
    >
      {(trigger) => <SettingsMenu trigger={trigger} />}
    </LoadOnUse>
  );
}
