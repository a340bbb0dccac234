// `aop evidence verify` gives one verdict whatever Node runs it: a workspace with signed gate runs,
// attestations and anchors — intact, then with an evidence byte flipped, an attestation forged and the
// chain's last entry deleted — is verified from the same folder by every Node the matrix names
// (AOP_MATRIX_NODES, paths joined like PATH; scripts/node-matrix.mjs sets it), and each answer (exit code
// and JSON) must equal the first Node's. Without two Nodes to compare there is nothing to test.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { signedWorkspace, type SignedWorkspace } from "../../helpers/attest.js";
import { CLI_BIN } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/tmp.js";

const NODES = (process.env.AOP_MATRIX_NODES ?? "").split(path.delimiter).filter((n) => n !== "");
const EVIDENCE = ".aop/features/feat_a/evidence";

/** A signed workspace with three chained gate runs, each attested and anchored. */
function signedRuns(): SignedWorkspace {
  const ws = signedWorkspace({ policy: { anchor_after_gate: true } });
  for (let i = 0; i < 3; i++) {
    const run = ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    if (run.code !== 0) throw new Error(run.stderr);
  }
  return ws;
}

const evidenceFiles = (ws: SignedWorkspace, ending: string) =>
  fs
    .readdirSync(ws.abs(EVIDENCE))
    .filter((f) => f.startsWith("gate-") && f.endsWith(ending))
    .sort();

const TAMPERS: [string, (ws: SignedWorkspace) => void][] = [
  ["intact", () => {}],
  [
    "evidence-byte-flipped",
    (ws) => {
      const file = ws.abs(path.join(EVIDENCE, evidenceFiles(ws, ".json").find((f) => !f.endsWith(".sigstore.json"))!));
      const bytes = fs.readFileSync(file);
      const middle = Math.floor(bytes.length / 2);
      bytes[middle] = bytes[middle]! ^ 0x01;
      fs.writeFileSync(file, bytes);
    },
  ],
  [
    "attestation-forged",
    (ws) => {
      const file = ws.abs(path.join(EVIDENCE, evidenceFiles(ws, ".intoto.jsonl")[0]!));
      const envelope = JSON.parse(fs.readFileSync(file, "utf8").split("\n")[0]!) as { signatures: { sig: string }[] };
      envelope.signatures[0]!.sig = Buffer.alloc(64, 7).toString("base64");
      fs.writeFileSync(file, JSON.stringify(envelope) + "\n");
    },
  ],
  [
    "last-chain-entry-deleted",
    (ws) => {
      const chain = ws.abs(path.join(EVIDENCE, "chain.jsonl"));
      const lines = fs.readFileSync(chain, "utf8").split("\n").filter((l) => l !== "");
      fs.writeFileSync(chain, lines.slice(0, -1).join("\n") + "\n");
    },
  ],
];

describe.skipIf(NODES.length < 2)("evidence verify on every Node of the matrix", () => {
  it.each(TAMPERS)("%s: the same exit code and JSON verdict on each Node", (_name, tamper) => {
    const original = signedRuns();
    tamper(original);
    // Each Node verifies a fresh copy at one path: verify records its result, and paths appear in verdicts.
    const at = path.join(tempDir("aop-verdicts-"), "ws");
    const verdicts = NODES.map((node) => {
      fs.rmSync(at, { recursive: true, force: true });
      fs.cpSync(original.root, at, { recursive: true });
      return [["--all"], ["--feature-id", "feat_a"]].map((args) => {
        const r = spawnSync(node, [CLI_BIN, "--root", at, "evidence", "verify", ...args, "--json"], { encoding: "utf8", env: { ...process.env, ...original.env, NO_COLOR: "1" } });
        return { node, args, code: r.status, verdict: JSON.parse(r.stdout) as unknown };
      });
    });
    for (const [i, answers] of verdicts.entries()) {
      for (const [j, answer] of answers.entries()) {
        const first = verdicts[0]![j]!;
        expect({ code: answer.code, verdict: answer.verdict }, `${answer.node} ${answer.args.join(" ")} against ${first.node}`).toEqual({ code: first.code, verdict: first.verdict });
        if (i === 0) expect(answer.code === 0, `${_name} ${answer.args.join(" ")}`).toBe(_name === "intact");
      }
    }
  });
});
