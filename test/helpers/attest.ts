// Workspaces that sign: integrity on, attestations on, a gate with a real step, a committed public key and
// a private key in a temp folder. CLI calls get an environment with no real home configuration.
import { createPrivateKey } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { GateFile } from "../../src/domains/attest/attest-gate.js";
import { signerFor, type Signer } from "../../src/domains/attest/ed25519-keys.js";
import type { ChainEntry } from "../../src/domains/evidence/chain-hash.js";
import type { WrittenEvidence } from "../../src/domains/evidence/evidence-files.js";
import { runCli, runJson, type CliResult } from "./cli.js";
import { buildChain, gateWorkspace, gatesYaml, nodeStep, type GateWorkspace } from "./gates.js";
import { keyEnv, signingKeyFixture, type SigningKeyFixture } from "./signing-key.js";
import { tempWorkspace, writeFile } from "./tmp.js";

export interface SignedWorkspace {
  root: string;
  key: SigningKeyFixture;
  env: Record<string, string | undefined>;
  cli(args: string[]): CliResult;
  json<T = Record<string, unknown>>(args: string[]): { code: number; json: T; stderr: string };
  /** Workspace-relative path → absolute. */
  abs(rel: string): string;
}

function signingPolicyYaml(extra: Record<string, boolean> = {}): string {
  const integrity = { enabled: true, attest: true, ...extra };
  const lines = Object.entries(integrity).map(([k, v]) => `    ${k}: ${v}`);
  return ["version: 1", "innovation:", "  tamper_evident_evidence: true", "observability:", "  evidence_integrity:", ...lines, ""].join("\n");
}

/** The workspace at `root` driven with `key` as its signing key, a HOME and a configuration folder of its own. */
export function signedWorkspaceIn(root: string, key: SigningKeyFixture): SignedWorkspace {
  const env = keyEnv({ key });
  return {
    root,
    key,
    env,
    cli: (args) => runCli(["--root", root, ...args], { env }),
    json: <T>(args: string[]) => runJson<T>(["--root", root, ...args], { env }),
    abs: (rel) => path.join(root, rel),
  };
}

export function signedWorkspace(options: { policy?: Record<string, boolean>; feature?: string } = {}): SignedWorkspace {
  const root = tempWorkspace();
  const key = signingKeyFixture();
  key.commitTo(root);
  writeFile(root, "agentic/orchestrator/policy.yaml", signingPolicyYaml(options.policy));
  writeFile(root, "agentic/orchestrator/gates.yaml", gatesYaml({ fast: [nodeStep("unit", "console.log('12 tests passed')"), nodeStep("lint", "console.log('no problems')")] }));
  const ws = signedWorkspaceIn(root, key);
  const created = ws.cli(["feature", "init", options.feature ?? "feat_a"]);
  if (created.code !== 0) throw new Error(created.stderr);
  return ws;
}

/** Every regular file under `dir` (including .git), for scans. */
export function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...allFiles(p));
    else if (entry.isFile()) out.push(p);
  }
  return out;
}

/** A gate run buildChain made: its evidence and its chain entry. */
export type ChainedRun = WrittenEvidence & { chain: ChainEntry | null };

/** A gate run's evidence file as the attestation functions take it. */
export function gateOf(w: WrittenEvidence): GateFile {
  return { feature_id: w.evidence.feature_id, mode: w.evidence.mode, epochMs: w.epochMs, rel_path: w.rel_path, bytes: w.bytes, evidence: w.evidence };
}

/** An in-process gate workspace with a committed key, its signer, and a chain of `count` gate runs of `featureId` (not yet attested). */
export async function signedChain(featureId: string, count: number): Promise<{ ws: GateWorkspace; key: SigningKeyFixture; signer: Signer; runs: ChainedRun[] }> {
  const ws = await gateWorkspace();
  const key = signingKeyFixture();
  key.commitTo(ws.root);
  const signer = signerFor(createPrivateKey(key.privatePem));
  return { ws, key, signer, runs: await buildChain(ws.layout, ws.clock, featureId, count) };
}
