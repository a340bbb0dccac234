import fs from "node:fs";
import { expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-007-evidence-chain-invalid.js";
import { runCheck, testCheck } from "../../../helpers/check-tester.js";
import { buildChain, gateWorkspace, INTEGRITY_POLICY_YAML, type GateWorkspace } from "../../../helpers/gates.js";

const NOW = "2026-03-02T00:00:00.000Z";

/** A gate workspace; `tampered` names the file a case changed. */
type ChainWorkspace = GateWorkspace & { tampered?: string };

async function chained(count = 3): Promise<ChainWorkspace> {
  const ws = await gateWorkspace({ policyYaml: INTEGRITY_POLICY_YAML });
  await buildChain(ws.layout, ws.clock, "feat_a", count);
  return ws;
}

const pattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

testCheck(check, {
  now: NOW,
  build: (make: () => Promise<ChainWorkspace>) => make(),
  valid: [
    { name: "an intact chain", workspace: () => chained(), ok: "evidence integrity chains verify" },
    { name: "integrity enabled but no chain yet", workspace: () => gateWorkspace({ policyYaml: INTEGRITY_POLICY_YAML }), ok: "evidence integrity chains verify" },
    {
      name: "integrity off: no finding under this id, even where gates ran (DRIFT_011 says integrity is off)",
      workspace: async () => {
        const ws = await gateWorkspace();
        await buildChain(ws.layout, ws.clock, "feat_a", 1);
        return ws;
      },
      ok: "evidence integrity is off: no chain to verify",
    },
  ],
  invalid: [
    {
      name: "a byte flipped in a chained artifact is reported with its sequence and code",
      workspace: async () => {
        const ws = await chained();
        const evidence = fs.readdirSync(ws.layout.evidenceDir("feat_a")).filter((f) => f.startsWith("gate-")).sort();
        const target = `${ws.layout.evidenceDir("feat_a")}/${evidence[1]}`;
        const bytes = fs.readFileSync(target);
        bytes[10] = bytes[10]! ^ 1;
        fs.writeFileSync(target, bytes);
        return { ...ws, tampered: ws.layout.relative(target) };
      },
      // The fix names the file to restore and the reset that starts over; never a re-run of the gate.
      findings: (ws) => [
        {
          message: /feature feat_a: chain invalid at sequence 1: evidence_chain_hash_mismatch/,
          remediation: new RegExp(`^(?!.*re-run)restore ${pattern(ws.tampered!)} from git .*aop evidence reset-chain --feature-id feat_a --reason`),
        },
      ],
    },
    {
      name: "the last line removed (the manifest says more)",
      workspace: async () => {
        const ws = await chained();
        const chain = ws.layout.chainFile("feat_a");
        const lines = fs.readFileSync(chain, "utf8").trimEnd().split("\n");
        fs.writeFileSync(chain, lines.slice(0, -1).join("\n") + "\n");
        return ws;
      },
      findings: [{ message: /evidence_chain_discontinuity/, remediation: /^restore \.aop\/features\/feat_a\/evidence\/ \(chain\.jsonl, manifest\.integrity\.json/ }],
    },
  ],
});

it(`${check.id} only reads: the manifest's last_verified_* fields are left untouched`, async () => {
  const ws = await chained();
  const before = fs.readFileSync(ws.layout.manifestFile("feat_a"));
  await runCheck(check, ws, NOW);
  expect(fs.readFileSync(ws.layout.manifestFile("feat_a"))).toEqual(before);
});
