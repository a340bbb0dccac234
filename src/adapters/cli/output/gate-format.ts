// Human renderings of gate runs: the live progress line (stderr, TTY only) and the summary table.
import type { GateProgressEvent } from "../../../domains/gates/index.js";
import type { GateRunReport } from "../../../domains/gates/index.js";
import { stepOutcome, type StepResult } from "../../../domains/evidence/index.js";
import { shortHash } from "./hash-format.js";
import { createProgress } from "./progress.js";
import type { Style } from "./style.js";
import { renderTable } from "./table.js";
import { formatDuration } from "../../../core/time-format.js";

function stepDuration(result: StepResult): string {
  if (!result.started_at || !result.finished_at) return "";
  return formatDuration(Date.parse(result.finished_at) - Date.parse(result.started_at));
}

function stepStatus(result: StepResult, style: Style): string {
  if (result.skipped) return style.dim("skipped");
  if (result.timed_out) return style.red("TIMEOUT");
  return result.exit_code === 0 ? style.green("pass") : style.red("FAIL");
}

export function renderStepTable(results: readonly StepResult[], style: Style): string {
  const rows = results.map((r) => [r.name, stepStatus(r, style), r.exit_code === null ? "" : String(r.exit_code), stepDuration(r), r.skipped ? style.dim(r.skip_reason ?? "") : (r.log_path ?? "")]);
  return renderTable([{ header: "STEP" }, { header: "RESULT" }, { header: "EXIT", align: "right" }, { header: "TIME", align: "right" }, { header: "LOG / REASON" }], rows, { indent: "  " });
}

export function renderGateReport(report: GateRunReport, style: Style): string {
  const counts = { pass: 0, fail: 0, skipped: 0 };
  for (const r of report.step_results) counts[stepOutcome(r)]++;
  const verdict = report.overall === "pass" ? style.green("PASS") : style.red("FAIL");
  const lines = [
    renderStepTable(report.step_results, style),
    "",
    `gate ${report.mode} (profile ${report.profile}) for ${report.feature_id}: ${verdict}  ${counts.pass} passed, ${counts.fail} failed, ${counts.skipped} skipped`,
    `evidence  ${report.evidence_path}`,
    report.chain ? `chain     entry ${report.chain.sequence}  ${shortHash(report.chain.chain_hash)}` : `chain     ${style.dim("not recorded (evidence integrity is off in policy)")}`,
  ];
  if (report.attestation) lines.push(`attested  ${report.attestation.path}  ${style.dim(`key ${report.attestation.keyid.slice(0, 12)}…`)}`);
  if (report.anchor) lines.push(`anchored  ${report.anchor.tree_size} ${report.anchor.tree_size === 1 ? "entry" : "entries"}  root ${report.anchor.root}${report.anchor.git_commit ? `  git ${report.anchor.git_commit.slice(0, 12)}` : ""}`);
  if (!report.is_latest) lines.push(style.yellow(`note      a newer run of '${report.mode}' was already recorded; ${report.latest_path} keeps it`));
  return lines.join("\n");
}

/** Live progress on stderr: running steps with their elapsed time, and one line per finished step. */
export function createGateProgress(style: Style, stream: NodeJS.WriteStream = process.stderr): { onEvent(event: GateProgressEvent): void; stop(): void } {
  const progress = createProgress(stream);
  const running = new Map<string, number>();
  let done = 0;
  let total = 0;
  const redraw = () => {
    if (running.size === 0) return;
    const now = performance.now();
    const parts = [...running].map(([name, start]) => `${name} ${formatDuration(now - start)}`);
    progress.update(`${style.cyan("running")} ${parts.join(", ")}  [${done}/${total}]`);
  };
  const timer = stream.isTTY ? setInterval(redraw, 200) : undefined;
  timer?.unref();
  return {
    onEvent(event) {
      if (event.type === "run-start") total = event.steps;
      else if (event.type === "step-start") running.set(event.step, performance.now());
      else {
        running.delete(event.step);
        done++;
        const r = event.result;
        const detail = r.skipped ? style.dim(r.skip_reason ?? "") : stepDuration(r);
        progress.done(`${stepStatus(r, style)} ${r.name} ${detail}`);
      }
      redraw();
    },
    stop() {
      if (timer) clearInterval(timer);
      progress.done();
    },
  };
}
