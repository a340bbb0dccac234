// Black-box: gate runs tell the truth in OTLP (docs/otel.md, "Gate runs"). A gate that fails is an ERROR
// call (gate_failed) with its steps; with evidence integrity on, a failed gate's evidence edited to say
// "pass" is exported with the verdict recorded when the gate ran, marked modified, without its steps.
// The built `aop export otlp` into a real OTLP receiver on loopback.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { exportCli, traceId } from "../../helpers/export-fixture.js";
import { gatesYaml, INTEGRITY_POLICY_YAML, nodeStep } from "../../helpers/gates.js";
import { settle, spansOf, startReceiver, type ReceivedSpan, type Receiver } from "../../helpers/otlp-receiver.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";

const RUN = "run:gates";
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

function cli(root: string, args: string[], expectCode = 0): string {
  const r = runCli([...args, "--run-id", RUN], { cwd: root });
  expect(r.code, r.stdout + r.stderr).toBe(expectCode);
  return r.stdout;
}

/** A workspace where feat_a's gate `check` ran and failed: lint passes, tests exit 3. */
function failedGate(policyYaml?: string): string {
  const root = tempWorkspace();
  writeFile(root, "agentic/orchestrator/gates.yaml", gatesYaml({ check: [nodeStep("lint", ""), nodeStep("tests", "process.exit(3)")] }));
  if (policyYaml !== undefined) writeFile(root, "agentic/orchestrator/policy.yaml", policyYaml);
  cli(root, ["feature", "init", "feat_a"]);
  cli(root, ["gates", "run", "--feature-id", "feat_a", "--mode", "check"], 1);
  return root;
}

/** Export the run; the spans of the request that carried it. */
async function exportGateRun(root: string): Promise<{ stdout: string; spans: ReceivedSpan[] }> {
  // The first export settles the workspace id, and with it the trace id.
  const seen = fs.existsSync(path.join(root, ".aop", "workspace.json")) ? receiver.requestsFor(traceId(root, RUN)).length : 0;
  const r = await exportCli(root, ["--run-id", RUN, "--endpoint", receiver.url]);
  expect(r.code, r.stderr).toBe(0);
  const trace = traceId(root, RUN);
  expect(r.stdout).toContain(`trace ${trace}`);
  await settle(() => receiver.requestsFor(trace).length > seen);
  return { stdout: r.stdout, spans: spansOf(receiver.requestsFor(trace).at(-1)!) };
}

const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);

function evidenceFile(root: string): string {
  const dir = path.join(root, ".aop", "features", "feat_a", "evidence");
  const [name] = fs.readdirSync(dir).filter((n) => /^gate-check-\d+\.json$/.test(n));
  return path.join(dir, name!);
}

describe("aop export otlp — gate runs", () => {
  it("a gate that fails exports an ERROR call with error.type gate_failed, its verdict and its steps", async () => {
    const root = failedGate();
    const { spans } = await exportGateRun(root);
    const [gate] = named(spans, "execute_tool gates.run");
    expect(gate!.status).toEqual({ code: "STATUS_CODE_ERROR", message: "gate_failed" });
    expect(gate!.attributes).toMatchObject({ "error.type": "gate_failed", "aop.gate.overall": "fail", "aop.gate.mode": "check", "aop.evidence.status": "not_chained" });
    const [lint] = named(spans, "gate_step lint");
    const [tests] = named(spans, "gate_step tests");
    expect([lint!.parentSpanId, tests!.parentSpanId]).toEqual([gate!.spanId, gate!.spanId]);
    expect(lint!.status.code).toBe("STATUS_CODE_UNSET");
    expect(tests!.status).toEqual({ code: "STATUS_CODE_ERROR", message: "exit code 3" });
    expect(tests!.attributes["process.command_args"]).toEqual([process.execPath, "-e", "process.exit(3)"]);
  });

  it("with integrity on, a failed gate's evidence edited to 'pass' is exported as failed, marked modified, without its steps", async () => {
    const root = failedGate(INTEGRITY_POLICY_YAML);
    const chained = await exportGateRun(root);
    const [before] = named(chained.spans, "execute_tool gates.run");
    expect(before!.attributes).toMatchObject({ "aop.gate.overall": "fail", "aop.evidence.status": "chained", "aop.gate.profile": "default" });
    expect(named(chained.spans, "gate_step tests")).toHaveLength(1);

    const file = evidenceFile(root);
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain('"overall": "fail"');
    fs.writeFileSync(file, text.replace('"overall": "fail"', '"overall": "pass"'));
    fs.rmSync(path.join(root, ".aop", "runtime", "export"), { recursive: true });

    const edited = await exportGateRun(root);
    expect(edited.stdout).toContain("1 gate's evidence modified since chained: verdict from the timeline, no steps");
    const [gate] = named(edited.spans, "execute_tool gates.run");
    expect(gate!.spanId).toBe(before!.spanId);
    expect(gate!.status).toEqual({ code: "STATUS_CODE_ERROR", message: "gate_failed" });
    expect(gate!.attributes).toMatchObject({ "aop.gate.overall": "fail", "aop.evidence.status": "modified", "aop.gate.evidence_path": path.relative(root, file) });
    expect(gate!.attributes).not.toHaveProperty("aop.gate.profile");
    expect(edited.spans.filter((s) => s.attributes["aop.gate.overall"] === "pass")).toEqual([]);
    expect(edited.spans.filter((s) => s.name.startsWith("gate_step"))).toEqual([]);
  });
});
