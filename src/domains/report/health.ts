// How the page colours a verdict (DESIGN §20): red for an error, amber for anything short of healthy, and
// green only when nothing is wrong. A warning is never shown as healthy. Pure: the page and its unit
// tests use the same functions.
import type { ChainView, DoctorView, EvidenceTrustView, GateView } from "./report-types.js";

/** The badge classes of report.css: ok green, warn amber, err red, info grey. */
type Tone = "ok" | "warn" | "err" | "info";

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

/** A chain that does not verify vouches for none of its files. */
function chainVouches(chain: ChainView): boolean {
  return chain.status === "valid";
}

/**
 * A gate's result as state.md recorded it when the gate ran. Anything but "pass" is red; a pass is green
 * only when its evidence file is chained, unchanged, in a chain that verifies (or when integrity is off
 * in policy, so that nothing is chained).
 */
export function gateMark(gate: Pick<GateView, "result" | "evidence_trust">, chain: ChainView, integrityEnabled: boolean): Mark {
  const label = gate.result || "?";
  if (gate.result !== "pass") return { tone: "err", label, why: null };
  const trust = gate.evidence_trust;
  if (trust?.status === "modified") return { tone: "warn", label, why: "its evidence file was modified after it was chained: nothing vouches for this result" };
  if (chain.status === "invalid" || chain.status === "unverifiable") return { tone: "warn", label, why: "the feature's evidence chain does not verify: nothing vouches for this result" };
  if (integrityEnabled && trust?.status !== "chained") return { tone: "warn", label, why: "no chain entry vouches for its evidence file" };
  return { tone: "ok", label, why: null };
}

/** An evidence file against its chain entry; `chain` is its feature's chain (null when the page does not know it). */
export function evidenceMark(trust: EvidenceTrustView, chain: ChainView | null, integrityEnabled: boolean): Mark {
  if (trust.status === "modified") {
    const found = trust.actual_hash === null ? "is missing or cannot be read" : `now hashes to ${trust.actual_hash}`;
    return {
      tone: "err",
      label: "modified after it was chained",
      why: `chain entry ${trust.chain_sequence} recorded ${trust.expected_hash}; the file ${found}. Its contents are not the verdict: the result shown is the one recorded when the gate ran.`,
    };
  }
  if (trust.status === "chained") {
    if (chain === null) return { tone: "info", label: "chained", why: `matches chain entry ${trust.chain_sequence} (whether the chain verifies is not in this report)` };
    if (!chainVouches(chain)) return { tone: "warn", label: "chained", why: `matches chain entry ${trust.chain_sequence}, but the chain does not verify` };
    return { tone: "ok", label: "chained", why: `matches chain entry ${trust.chain_sequence}` };
  }
  return integrityEnabled ? { tone: "warn", label: "not chained", why: "no chain entry names this file: nothing vouches for it" } : { tone: "info", label: "not chained", why: "evidence integrity is off in policy" };
}
