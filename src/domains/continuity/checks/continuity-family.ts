// The continuity family (CONT_*, docs/continuity.md): diagnoses memory/CURRENT_STATE.md, never repairs
// it. Ordered by id, as the engine runs them; `aop doctor` runs it when the workspace has memory/.
import fs from "node:fs";
import type { DoctorCheck, DoctorFamily } from "../../doctor/index.js";
import { check as cont001 } from "./cont-001-state-file-missing.js";
import { check as cont002 } from "./cont-002-state-file-stale.js";
import { check as cont003 } from "./cont-003-section-missing.js";
import { check as cont004 } from "./cont-004-placeholder-text.js";
import { check as cont005 } from "./cont-005-unsurfaced-results.js";
import { check as cont006 } from "./cont-006-archive-objective-changed.js";
import { check as cont007 } from "./cont-007-objective-not-in-tasks.js";

export const continuityChecks: readonly DoctorCheck[] = [cont001, cont002, cont003, cont004, cont005, cont006, cont007];

export const continuityFamily: DoctorFamily = { name: "continuity", applies: (ctx) => fs.existsSync(ctx.layout.memoryDir), checks: continuityChecks };
