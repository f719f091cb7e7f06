// What the dashboard's charts share: the axes' labels and the tooltip, in the admin's colours.

export const axisTick = { fontSize: 11, fill: "var(--muted-foreground)" };
export const tooltipStyle = {
  contentStyle: { background: "var(--popover)", border: "1px solid var(--border)", borderRadius: 8, fontSize: 12, color: "var(--popover-foreground)" },
  labelStyle: { color: "var(--muted-foreground)" },
};
