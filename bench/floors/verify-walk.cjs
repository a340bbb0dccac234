// The essential work of `aop evidence verify --feature-id <id>` and nothing else, as the floor its bench
// targets are judged against (docs/performance.md): per chain line, JSON.parse and the entry's chain hash
// (its canonical payload is JSON.stringify of its six fields in sorted order); per entry, its evidence
// file opened, fstat'ed, read, hashed and parsed, and each step log it names opened, fstat'ed, read and
// hashed. With --signed also what an anchor with attestation digests adds: each entry's attestation
// (and Sigstore bundle, when present) read and hashed, and both RFC 6962 roots (chain lines; attestation
// digest leaves) compared with the newest anchor's. No bounds, no links, no special files, no messages:
// none of the checks docs/hardening.md requires, so real verification can only cost more.
// Exits 1 when anything does not verify (so a floor is only printed for work actually done).
//   node bench/floors/verify-walk.cjs <root> <feature_id> [--signed]
"use strict";
const fs = require("node:fs");
const { hash } = require("node:crypto");

const [root, featureId, flag] = process.argv.slice(2);
const signed = flag === "--signed";
const evidenceDir = `${root}/.aop/features/${featureId}/evidence`;
const OPEN = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW;
const buffer = Buffer.allocUnsafe(1 << 20);
let bad = 0;

function read(file) {
  const fd = fs.openSync(file, OPEN);
  try {
    fs.fstatSync(fd);
    return buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, null));
  } finally {
    fs.closeSync(fd);
  }
}

const sha = (bytes) => hash("sha256", bytes, "hex");
const scratch = Buffer.allocUnsafe(65);
const leafScratch = Buffer.allocUnsafe(1 << 16);
/** RFC 6962 leaf hash of a string's UTF-8 bytes. */
function leaf(text) {
  leafScratch[0] = 0;
  return hash("sha256", leafScratch.subarray(0, leafScratch.write(text, 1, "utf8") + 1), "buffer");
}
function node(left, right) {
  scratch[0] = 1;
  left.copy(scratch, 1);
  right.copy(scratch, 33);
  return hash("sha256", scratch, "buffer");
}
/** RFC 6962 compact range: append a leaf at index `size`. */
function append(frontier, size, leafHash) {
  frontier.push(leafHash);
  for (let s = size; s % 2 === 1; s = Math.floor(s / 2)) {
    const right = frontier.pop();
    frontier.push(node(frontier.pop(), right));
  }
}
function rootOf(frontier) {
  let r = frontier[frontier.length - 1];
  for (let i = frontier.length - 2; i >= 0; i--) r = node(frontier[i], r);
  return r.toString("base64");
}

const names = signed ? new Set(fs.readdirSync(evidenceDir)) : null;
const chainRange = [];
const attestationRange = [];
const lines = fs.readFileSync(`${evidenceDir}/chain.jsonl`, "utf8").split("\n");
lines.pop();
let prev = "sha256:genesis";
for (const [sequence, line] of lines.entries()) {
  const e = JSON.parse(line);
  const payload = { algorithm_version: e.algorithm_version, artifact_hash: e.artifact_hash, artifact_rel_path: e.artifact_rel_path, feature_id: e.feature_id, prev_chain_hash: e.prev_chain_hash, sequence: e.sequence };
  if (e.sequence !== sequence || e.prev_chain_hash !== prev || `sha256:${sha(JSON.stringify(payload))}` !== e.chain_hash) bad++;
  prev = e.chain_hash;
  const evidence = read(`${root}/${e.artifact_rel_path}`);
  if (`sha256:${sha(evidence)}` !== e.artifact_hash) bad++;
  for (const step of JSON.parse(evidence.toString("utf8")).step_results) {
    if (step.log_path && `sha256:${sha(read(`${root}/${step.log_path}`))}` !== step.log_sha256) bad++;
  }
  if (signed) {
    append(chainRange, sequence, leaf(line));
    const base = e.artifact_rel_path.slice(e.artifact_rel_path.lastIndexOf("/") + 1, -".json".length);
    const digest = (name) => (names.has(name) ? sha(read(`${evidenceDir}/${name}`)) : "-");
    append(attestationRange, sequence, leaf(`${digest(`${base}.intoto.jsonl`)} ${digest(`${base}.sigstore.json`)}`));
  }
}
if (signed) {
  const anchors = fs.readFileSync(`${evidenceDir}/anchors.jsonl`, "utf8").trim().split("\n");
  const newest = JSON.parse(anchors[anchors.length - 1]);
  const [, size, chainRoot] = newest.note.split("\n");
  const digestsRoot = newest.attestations.split("\n")[4];
  if (Number(size) !== lines.length || chainRoot !== rootOf(chainRange) || digestsRoot !== rootOf(attestationRange)) bad++;
}
if (bad > 0) {
  process.stderr.write(`${bad} check(s) did not hold\n`);
  process.exit(1);
}
