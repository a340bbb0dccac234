// A YAML alias bomb or an alias naming no anchor in policy.yaml or gates.yaml is a configuration problem
// like any other parse failure: DRIFT_001/DRIFT_002 and a `config check` line, defaults meanwhile — never
// internal_error, and `aop mcp` still starts.
import { describe, expect, it } from "vitest";
import { mcpClient } from "../../../src/app/clients/mcp.js";
import { runCli, runJson } from "../../helpers/cli.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";

// Nine aliases per level, five levels: 9^5 = 59,049 nodes from a few hundred bytes.
const BOMB = ["a: &a [x, x, x, x, x, x, x, x, x]", ...["b", "c", "d", "e"].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${"abcd"[i]}`).join(", ")}]`), ""].join("\n");
const UNRESOLVED = "version: 1\ninnovation: *nowhere\n";

const FILES = [
  { file: "agentic/orchestrator/policy.yaml", check: "DRIFT_001_POLICY_SCHEMA_INVALID" },
  { file: "agentic/orchestrator/gates.yaml", check: "DRIFT_002_GATES_SCHEMA_INVALID" },
] as const;

describe("YAML aliases in configuration", () => {
  it.each(FILES.flatMap(({ file, check }) => [["an alias bomb", BOMB, /Excessive alias count/], ["an unresolved alias", UNRESOLVED, /Unresolved alias/]].map(([what, text, says]) => [`${what} in ${file}`, file, check, text as string, says as RegExp] as const)))(
    "%s is a configuration problem, not an internal error",
    (_name, file, check, text, says) => {
      const root = tempWorkspace();
      writeFile(root, file, text);
      const doctor = runJson<{ findings: { id: string; message: string }[] }>(["--root", root, "doctor"]);
      expect(doctor.code).toBe(0);
      const finding = doctor.json.findings.find((f) => f.id === check);
      expect(finding?.message).toMatch(says);
      const config = runCli(["--root", root, "config", "check"]);
      expect(config.code).toBe(1);
      expect(config.stdout + config.stderr).toMatch(new RegExp(`${file.split("/").pop()!.replace(".", "\\.")}.*is not usable YAML`));
      expect(config.stdout + config.stderr).not.toMatch(/internal_error/);
    },
  );

  it("aop mcp starts and answers with a policy alias bomb (calls then fail with config_invalid, the doctor runs)", async () => {
    const root = tempWorkspace();
    writeFile(root, "agentic/orchestrator/policy.yaml", BOMB);
    const client = await mcpClient({ root, env: { ...process.env }, stderr: "pipe" });
    try {
      const list = await client.callTool("feature.list", {});
      expect(list.envelope).toMatchObject({ ok: false, error: { code: "config_invalid" } });
      const doctor = await client.callTool("doctor.run", { operation_id: "op-yaml-bomb-1" });
      expect(doctor.envelope.ok).toBe(true);
    } finally {
      await client.close();
    }
  }, 30_000);
});
