// The drift family: the DRIFT_* checks, in id order. It applies to every workspace.
import type { DoctorCheck, DoctorFamily } from "../check-types.js";
import { check as drift001 } from "./drift-001-policy-schema-invalid.js";
import { check as drift002 } from "./drift-002-gates-schema-invalid.js";
import { check as drift003 } from "./drift-003-tool-contract-drift.js";
import { check as drift004 } from "./drift-004-stale-run-lease.js";
import { check as drift005 } from "./drift-005-runtime-session-orphans.js";
import { check as drift006 } from "./drift-006-timeline-corruption.js";
import { check as drift007 } from "./drift-007-evidence-chain-invalid.js";
import { check as drift008 } from "./drift-008-index-state-inconsistency.js";
import { check as drift009 } from "./drift-009-idempotency-ledger.js";
import { check as drift010 } from "./drift-010-leftover-files.js";
import { check as drift011 } from "./drift-011-evidence-integrity-off.js";
import { check as drift012 } from "./drift-012-private-key-in-workspace.js";
import { check as drift013 } from "./drift-013-timeline-old-lines.js";
import { check as drift014 } from "./drift-014-config-upstream-keys.js";

const driftChecks: DoctorCheck[] = [drift001, drift002, drift003, drift004, drift005, drift006, drift007, drift008, drift009, drift010, drift011, drift012, drift013, drift014];

export const driftFamily: DoctorFamily = { name: "drift", applies: () => true, checks: driftChecks };
