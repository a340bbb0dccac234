// The one place that builds workspace paths (docs/foundation.md). Ids are validated before they touch a path.
import path from "node:path";
import { AopError } from "../core/errors.js";
import { gateEvidenceName, gateSiblingName } from "./gate-file-names.js";
import { validateId } from "../core/ids.js";
import { registerWorkspaceRoot } from "./containment.js";

export const RUNTIME_FILE_MODE = 0o600;
const RUNTIME_DIR_MODE = 0o700;

export class WorkspaceLayout {
  readonly root: string;
  readonly checkpointsDir: string;
  /** Records no writer appends to (a pulled workspace: docs/handoff.md): readers take no locks and record nothing there. */
  readonly frozen: boolean = false;

  constructor(root: string, options: { checkpointsDir?: string } = {}) {
    this.root = path.resolve(root);
    this.checkpointsDir = options.checkpointsDir ? path.resolve(this.root, options.checkpointsDir) : path.join(this.root, ".checkpoints");
    // Reads and writes under either folder must not follow links out of it (docs/hardening.md).
    registerWorkspaceRoot(this.root);
    if (options.checkpointsDir) registerWorkspaceRoot(path.dirname(this.checkpointsDir), { containmentOnly: true });
  }

  // agentic/orchestrator/
  get orchestratorDir(): string {
    return path.join(this.root, "agentic", "orchestrator");
  }
  get policyFile(): string {
    return path.join(this.orchestratorDir, "policy.yaml");
  }
  get gatesFile(): string {
    return path.join(this.orchestratorDir, "gates.yaml");
  }
  /** aop's own policy keys, which the upstream orchestrator's policy schema refuses (docs/compatibility.md). */
  get aopConfigFile(): string {
    return path.join(this.orchestratorDir, "aop.yaml");
  }
  get toolsDoc(): string {
    return path.join(this.orchestratorDir, "tools.md");
  }
  /** Where the upstream orchestrator keeps its own configuration (not read by aop: docs/compatibility.md). */
  get upstreamConfigDir(): string {
    return path.join(this.root, "config", "agentic", "orchestrator");
  }
  /** Public keys that verify attestations and anchors, committed with the workspace. */
  get keysDir(): string {
    return path.join(this.orchestratorDir, "keys");
  }
  publicKeyFile(keyid: string): string {
    if (!/^[0-9a-f]{64}$/.test(keyid)) throw new AopError("invalid_argument", `key id must be 64 lowercase hex characters (got '${keyid.slice(0, 80)}')`);
    return path.join(this.keysDir, `${keyid}.pub`);
  }

  // .aop/
  get aopDir(): string {
    return path.join(this.root, ".aop");
  }
  /** The workspace's id and the fingerprint that tells a copy (store/workspace-identity.ts). */
  get workspaceIdentityFile(): string {
    return path.join(this.aopDir, "workspace.json");
  }
  get featuresDir(): string {
    return path.join(this.aopDir, "features");
  }
  get featuresIndex(): string {
    return path.join(this.featuresDir, "index.json");
  }
  // Hot paths (every tool call resolves these): memoised per id after validation.
  private readonly featureDirs = new Map<string, string>();
  private readonly leaseFiles = new Map<string, string>();

  featureDir(featureId: string): string {
    let dir = this.featureDirs.get(featureId);
    if (dir === undefined) {
      dir = path.join(this.featuresDir, validateId("feature_id", featureId));
      if (this.featureDirs.size < 10_000) this.featureDirs.set(featureId, dir);
    }
    return dir;
  }
  featureState(featureId: string): string {
    return path.join(this.featureDir(featureId), "state.md");
  }
  featureLogsDir(featureId: string): string {
    return path.join(this.featureDir(featureId), "logs");
  }
  stepLog(featureId: string, epochMs: number, mode: string, step: string): string {
    validateId("mode", mode);
    validateId("step", step);
    return path.join(this.featureLogsDir(featureId), `${epochMs}-${mode}-${step}.log`);
  }
  evidenceDir(featureId: string): string {
    return path.join(this.featureDir(featureId), "evidence");
  }
  gateEvidence(featureId: string, mode: string, epochMs: number): string {
    return path.join(this.evidenceDir(featureId), gateEvidenceName(mode, epochMs));
  }
  latestEvidence(featureId: string, mode: string): string {
    return path.join(this.evidenceDir(featureId), `latest-${validateId("mode", mode)}.json`);
  }
  chainFile(featureId: string): string {
    return path.join(this.evidenceDir(featureId), "chain.jsonl");
  }
  manifestFile(featureId: string): string {
    return path.join(this.evidenceDir(featureId), "manifest.integrity.json");
  }
  /** The DSSE-signed in-toto attestation beside `gate-<mode>-<epoch_ms>.json` (one envelope, one line). */
  gateAttestation(featureId: string, mode: string, epochMs: number): string {
    return path.join(this.evidenceDir(featureId), gateSiblingName(mode, epochMs, "attestation"));
  }
  /** The same attestation as a Sigstore bundle. */
  gateBundle(featureId: string, mode: string, epochMs: number): string {
    return path.join(this.evidenceDir(featureId), gateSiblingName(mode, epochMs, "bundle"));
  }
  /** Where `evidence.reset_chain` keeps the chain it set aside, and the files that chain covered. */
  chainResetArchive(featureId: string, stamp: string): string {
    return path.join(this.evidenceDir(featureId), `reset-${validateId("stamp", stamp)}`);
  }
  /** One line per chain reset: when, why, by whom, and what the old chain said (append-only). */
  chainResetsFile(featureId: string): string {
    return path.join(this.evidenceDir(featureId), "resets.jsonl");
  }
  /** Signed checkpoints of the chain, append-only, newest last. */
  anchorsFile(featureId: string): string {
    return path.join(this.evidenceDir(featureId), "anchors.jsonl");
  }
  /**
   * Receipts of the attestations this machine's gate runs wrote, append-only: a cache for the anchoring
   * key's holder, authenticated by a MAC, never trusted by verification (docs/evidence.md, "Attestation receipts").
   */
  attestationReceiptsFile(featureId: string): string {
    return path.join(this.evidenceDir(featureId), "attestation-receipts.txt");
  }

  // .aop/runtime/
  get runtimeDir(): string {
    return path.join(this.aopDir, "runtime");
  }
  runtimeInstanceDir(instanceId = "default"): string {
    return path.join(this.runtimeDir, validateId("instance_id", instanceId));
  }
  runLease(instanceId = "default"): string {
    let file = this.leaseFiles.get(instanceId);
    if (file === undefined) {
      file = path.join(this.runtimeInstanceDir(instanceId), "run-lease.json");
      if (this.leaseFiles.size < 1_000) this.leaseFiles.set(instanceId, file);
    }
    return file;
  }
  get ledgerDir(): string {
    return path.join(this.runtimeDir, "operation-ledger");
  }
  /** An operation's fan-out folder (two hex digits) and the names of its record and intent files in it. */
  ledgerFileNames(operationKeyHex: string): { bucket: string; record: string; intent: string } {
    const key = ledgerKey(operationKeyHex);
    return { bucket: key.slice(0, 2), record: `${key}.json`, intent: `${key}.intent.jsonl` };
  }
  /** One ledger record per operation id, keyed by the hex sha256 of the id, fanned out by its first byte. */
  ledgerRecord(operationKeyHex: string): string {
    const names = this.ledgerFileNames(operationKeyHex);
    return path.join(this.ledgerBucket(names.bucket), names.record);
  }
  /** The intent of an operation in flight (or interrupted): its start and the effects it noted. */
  ledgerIntent(operationKeyHex: string): string {
    const names = this.ledgerFileNames(operationKeyHex);
    return path.join(this.ledgerBucket(names.bucket), names.intent);
  }
  /** One of the 256 fan-out folders of the ledger, by its two hex digits. */
  ledgerBucket(bucketHex: string): string {
    if (!/^[0-9a-f]{2}$/.test(bucketHex)) throw new Error("ledger bucket must be two lowercase hex digits");
    return path.join(this.ledgerDir, bucketHex);
  }
  get replayDir(): string {
    return path.join(this.runtimeDir, "replay");
  }
  timelineFile(runId: string): string {
    return path.join(this.replayDir, `${validateId("run_id", runId)}.timeline.jsonl`);
  }
  /** The run's sidecar: what aop keeps per entry beyond the seed's 14 keys (DESIGN §21), one line per sequence. */
  timelineExt(runId: string): string {
    return path.join(this.replayDir, `${validateId("run_id", runId)}.ext.jsonl`);
  }
  timelineMeta(runId: string): string {
    return path.join(this.replayDir, `${validateId("run_id", runId)}.meta.json`);
  }
  /** Entries written without the run's lock (by hooks short on time), waiting to be appended. */
  timelineSpoolDir(runId: string): string {
    return path.join(this.replayDir, `${validateId("run_id", runId)}.spool`);
  }
  timelineSpoolFile(runId: string, name: string): string {
    return path.join(this.timelineSpoolDir(runId), validateId("spool_file", name));
  }
  /** Entries of calls whose client's session hook files them (Claude Code's tool_use_id): docs/agents.md. */
  get timelineHandoffDir(): string {
    return path.join(this.replayDir, "handoff");
  }
  timelineHandoffFile(toolUseId: string): string {
    return path.join(this.timelineHandoffDir, `${validateId("tool_use_id", toolUseId)}.json`);
  }
  /** What the Claude Code hook remembers about a session between events (e.g. that Stop blocked once). */
  hookSessionState(runId: string): string {
    return path.join(this.replayDir, `${validateId("run_id", runId)}.hook-state.json`);
  }
  /** Search indexes, one per run: a cache a search checks before use and rebuilds (docs/replay.md, "Search"). */
  get searchIndexDir(): string {
    return path.join(this.runtimeDir, "search");
  }
  searchIndexFile(runId: string): string {
    return path.join(this.searchIndexDir, `${validateId("run_id", runId)}.index.json`);
  }
  get replayRetentionFile(): string {
    return path.join(this.replayDir, "retention.json");
  }
  get doctorDir(): string {
    return path.join(this.runtimeDir, "doctor");
  }
  get doctorLastReport(): string {
    return path.join(this.doctorDir, "last_report.json");
  }
  get doctorHistoryDir(): string {
    return path.join(this.doctorDir, "history");
  }
  doctorHistoryFile(stamp: string): string {
    return path.join(this.doctorHistoryDir, `${validateId("timestamp", stamp)}.json`);
  }
  get exportDir(): string {
    return path.join(this.runtimeDir, "export");
  }
  /** How far a run's export to one target got; `targetKeyHex` identifies the target (docs/otel.md). */
  exportCursor(runId: string, targetKeyHex: string): string {
    if (!/^[0-9a-f]{16}$/.test(targetKeyHex)) throw new Error("export target key must be 16 lowercase hex characters");
    return path.join(this.exportDir, `${validateId("run_id", runId)}.${targetKeyHex}.cursor.json`);
  }
  /** The handoff note `aop handoff` writes, and `aop sync push` carries as `handoff.json` (docs/handoff.md). */
  get handoffFile(): string {
    return path.join(this.runtimeDir, "handoff.json");
  }
  /** Pulled workspaces' records, read-only: `.aop/remote/<remote>/<workspace_id>/` (docs/handoff.md). */
  get remoteDir(): string {
    return path.join(this.aopDir, "remote");
  }
  /** What `aop sync` keeps between runs (its push lock, segment scratch files): docs/sync.md. */
  get syncDir(): string {
    return path.join(this.runtimeDir, "sync");
  }
  /** Records pulled from `remote`, one workspace-shaped folder per origin (docs/sync.md). */
  remoteFolder(remote: string): string {
    return path.join(this.remoteDir, validateId("remote", remote));
  }
  get hooksLog(): string {
    return path.join(this.runtimeDir, "hooks.log");
  }
  /** The policy as loaded from the current policy.yaml, for processes that live for one event (the hook). */
  get policySnapshotFile(): string {
    return path.join(this.runtimeDir, "policy.snapshot.json");
  }
  /** gates.yaml as loaded from its current text, for the doctor's checks at every run (config/gates-snapshot.ts). */
  get gatesSnapshotFile(): string {
    return path.join(this.runtimeDir, "gates.snapshot.json");
  }

  // .checkpoints/
  checkpointFile(skill: string): string {
    return path.join(this.checkpointsDir, `${validateId("skill", skill)}.checkpoint.json`);
  }
  /** The project a checkpoints folder belongs to: the folder that holds it. */
  get checkpointsProjectDir(): string {
    return path.dirname(this.checkpointsDir);
  }
  /** A path a checkpoint names (e.g. a generated file), resolved against the checkpoints' project. */
  checkpointProjectPath(relativeOrAbsolute: string): string {
    return path.resolve(this.checkpointsProjectDir, relativeOrAbsolute);
  }
  /** A file of the checkpoints folder by its listed name (concatenated, not joined: scans call this a thousand times). */
  checkpointFileByName(fileName: string): string {
    if (fileName === "" || fileName.startsWith(".") || fileName.includes("/") || fileName.includes("\\") || fileName.includes("\u0000")) {
      throw new AopError("invalid_argument", `checkpoint file name must be a plain name inside the folder (got '${fileName.slice(0, 80)}')`);
    }
    return this.checkpointsDir + path.sep + fileName;
  }
  get checkpointsGitignore(): string {
    return path.join(this.checkpointsDir, ".gitignore");
  }
  get checkpointHistoryDir(): string {
    return path.join(this.checkpointsDir, "history");
  }
  checkpointHistoryFile(skill: string, stamp: string): string {
    return path.join(this.checkpointHistoryDir, `${validateId("skill", skill)}.${validateId("timestamp", stamp)}.checkpoint.json`);
  }

  // memory/
  get memoryDir(): string {
    return path.join(this.root, "memory");
  }
  get currentStateFile(): string {
    return path.join(this.memoryDir, "CURRENT_STATE.md");
  }
  get sessionArchiveDir(): string {
    return path.join(this.memoryDir, "session_archive");
  }
  /** A file of memory/session_archive/ by its name (as listed from the folder). */
  sessionArchiveFile(name: string): string {
    return path.join(this.sessionArchiveDir, validateId("archive file", name));
  }

  // Planning files the continuity doctor compares the objective with: tasks.md and openspec/.
  get tasksFile(): string {
    return path.join(this.root, "tasks.md");
  }
  get openspecDir(): string {
    return path.join(this.root, "openspec");
  }
  get openspecChangesDir(): string {
    return path.join(this.openspecDir, "changes");
  }
  openspecChangeFile(changeId: string, file: "proposal.md" | "tasks.md"): string {
    return path.join(this.openspecChangesDir, validateId("openspec change", changeId), file);
  }

  /** Paths relative to the workspace root, with forward slashes, for reports and evidence. */
  relative(absolute: string): string {
    return path.relative(this.root, absolute).split(path.sep).join("/");
  }

  /** Resolve a workspace-relative path and refuse anything that escapes the root. */
  resolveInside(relative: string): string | null {
    const resolved = path.resolve(this.root, relative);
    const rel = path.relative(this.root, resolved);
    if (rel === "" ) return resolved;
    if (rel.startsWith("..") || path.isAbsolute(rel)) return null;
    return resolved;
  }

  isRuntimePath(absolute: string): boolean {
    const rel = path.relative(this.runtimeDir, absolute);
    return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
  }

  /** The lock file guarding `target`. */
  lockFor(target: string): string {
    return `${target}.lock`;
  }
}

function ledgerKey(operationKeyHex: string): string {
  if (!/^[0-9a-f]{64}$/.test(operationKeyHex)) throw new Error("ledger key must be 64 lowercase hex characters");
  return operationKeyHex;
}

/** Files whose path lies under a `.aop/runtime` folder describe what agents did: owner-only. */
export function defaultFileMode(file: string): number {
  return file.split(path.sep).join("/").includes("/.aop/runtime/") ? RUNTIME_FILE_MODE : 0o644;
}

export function defaultDirMode(dir: string): number {
  const normalized = dir.split(path.sep).join("/") + "/";
  return normalized.includes("/.aop/runtime/") ? RUNTIME_DIR_MODE : 0o755;
}
