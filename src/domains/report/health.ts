// How the page colours a verdict (DESIGN §20): red for an error, amber for anything short of healthy, and
// green only when nothing is wrong. A warning is never shown as healthy. Pure: the page and its unit
// tests use the same functions.
import type { DoctorView } from "./report-types.js";

/** The badge classes of report.css: ok green, warn amber, err red, info grey. */
export type Tone = "ok" | "warn" | "err" | "info";

export interface Mark {
  tone: Tone;
  label: string;
  /** Why it is not green, for the badge's title and the text beside it; null when there is nothing to say. */
  why: string | null;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/**
 * The doctor's last report at a glance. Its `ok` means "no critical finding" (the report's schema), so
 * a report holding warnings has `ok: true`: it is amber here, not green.
 */
export function doctorHealth(view: Pick<DoctorView, "ok" | "findings">): Mark {
  const critical = view.findings.filter((f) => f.severity === "critical").length;
  // A severity the page does not know is not healthy either.
  const warnings = view.findings.filter((f) => f.severity !== "critical" && f.severity !== "info").length;
  if (critical > 0) return { tone: "err", label: "not ok", why: plural(critical, "critical finding") };
  if (view.ok === false) return { tone: "err", label: "not ok", why: "the report says not ok" };
  if (warnings > 0) return { tone: "warn", label: plural(warnings, "warning"), why: "no critical finding, but a warning is not healthy: see below" };
  return { tone: "ok", label: "ok", why: null };
}
