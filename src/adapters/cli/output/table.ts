// Aligned text columns for human output. Cells may carry color codes; widths ignore them.
import { escapeCell } from "./escape.js";
import { visibleLength } from "./style.js";

export interface Column {
  header: string;
  align?: "left" | "right";
}

export function renderTable(columns: Column[], rows: string[][], options: { indent?: string; gap?: string } = {}): string {
  const indent = options.indent ?? "";
  const gap = options.gap ?? "  ";
  // A cell stays on its line: newlines and other controls in it are shown as escapes (colors kept).
  rows = rows.map((r) => r.map(escapeCell));
  const widths = columns.map((c, i) => Math.max(visibleLength(c.header), ...rows.map((r) => visibleLength(r[i] ?? ""))));
  const pad = (cell: string, i: number): string => {
    const fill = " ".repeat(Math.max(0, widths[i]! - visibleLength(cell)));
    return columns[i]!.align === "right" ? fill + cell : cell + fill;
  };
  const line = (cells: string[]) => (indent + cells.map((c, i) => pad(c, i)).join(gap)).trimEnd();
  return [line(columns.map((c) => c.header)), ...rows.map((r) => line(r))].join("\n");
}
