import type { DiscountWindow } from "./in-force";

/** The cases that the SQL and the JavaScript form of "in force" must both answer alike (in-force.test.ts, in-force.int.test.ts). */
export const NOW = new Date("2026-03-15T12:00:00Z");
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const DAY = 24 * 60 * 60 * 1000;

export const inForceCases: { name: string; window: DiscountWindow; inForce: boolean }[] = [
  { name: "active without a window", window: { active: true, startsAt: null, expiresAt: null }, inForce: true },
  { name: "inactive without a window", window: { active: false, startsAt: null, expiresAt: null }, inForce: false },
  { name: "inactive inside its window", window: { active: false, startsAt: at(-DAY), expiresAt: at(DAY) }, inForce: false },
  { name: "active inside its window", window: { active: true, startsAt: at(-DAY), expiresAt: at(DAY) }, inForce: true },
  { name: "starting exactly now", window: { active: true, startsAt: NOW, expiresAt: null }, inForce: true },
  { name: "starting a moment from now", window: { active: true, startsAt: at(1000), expiresAt: null }, inForce: false },
  { name: "expiring exactly now", window: { active: true, startsAt: null, expiresAt: NOW }, inForce: false },
  { name: "expiring a moment from now", window: { active: true, startsAt: null, expiresAt: at(1000) }, inForce: true },
  { name: "expired yesterday", window: { active: true, startsAt: at(-2 * DAY), expiresAt: at(-DAY) }, inForce: false },
];
