/** eBay's item conditions in the words its listing pages use. */
export const conditionLabels: Record<string, string> = {
  NEW: "New",
  NEW_OTHER: "New (other)",
  USED_EXCELLENT: "Used – excellent",
  USED_VERY_GOOD: "Used – very good",
  USED_GOOD: "Used – good",
  USED_ACCEPTABLE: "Used – acceptable",
  FOR_PARTS_OR_NOT_WORKING: "For parts or not working",
};
