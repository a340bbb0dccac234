// Starter files written by `aop init`. Both must load cleanly (a test checks it).

export const POLICY_TEMPLATE = `# aop-continuity policy for this workspace.
# Deep-merged over the bundled defaults: objects merge, arrays replace, an explicit null replaces.
# Only list what you change. Check it with: aop config check
# aop's own keys (attestations, anchors, OTLP export, idempotency, checkpoints, hooks) go in aop.yaml
# beside this file: the upstream orchestrator reads this one and refuses them (docs/compatibility.md).
version: 1

locks:
  lease_ttl_seconds: 900          # how long a run lease lives without a heartbeat

gate_selection:
  default_profile: default        # the gates.yaml profile \`aop gates run\` uses without --profile

observability:
  replay:
    enabled: true
    write_mode: best_effort       # best_effort | required (a call fails if its timeline line cannot be written)
  evidence_integrity:
    enabled: true                 # with innovation.tamper_evident_evidence: hash-chain every gate evidence file

innovation:
  replay_debugger: true
  tamper_evident_evidence: true

diagnostics:
  doctor:
    strict_fails_on: warning      # critical | warning: what makes \`aop doctor --strict\` fail (a broken chain is a warning)

# rbac:                           # narrow a role's tools (a list replaces the default list)
#   builder: [feature.get, feature.list, run.status, gates.run, evidence.latest]
`;

export const AOP_TEMPLATE = `# aop-continuity's own policy keys for this workspace: the ones the upstream orchestrator's
# policy.yaml schema refuses, kept here where it never looks (docs/compatibility.md). Merged over
# policy.yaml (and the bundled defaults) the same way; only aop's own keys are allowed here.
# Check it with: aop config check
version: 1

# observability:
#   evidence_integrity:
#     attest: true                # sign every gate run as an in-toto attestation (run \`aop keys init\` first)
#     anchor_after_gate: true     # append a signed checkpoint of the chain after every chained gate run
#     anchor_git: false           # also commit those anchors on refs/aop/anchors
#   export:                       # where \`aop export otlp\` sends when no flag or OTEL_* variable says (docs/otel.md)
#     otlp:
#       enabled: true
#       endpoint: http://localhost:4318/v1/traces
#       protocol: http/protobuf   # or http/json
#       headers_env: OTLP_HEADERS # the NAME of a variable holding name=value,... (never the secret itself)

# idempotency:
#   retention: { max_age_days: 30, max_records: 10000 }

# checkpoints:
#   stale_days: { in_progress: 7, blocked: 3, complete: 14 }

# hooks:
#   claude:
#     stop_reminder: message      # message | block | off: when memory/CURRENT_STATE.md is stale at a stop
`;

export const GATES_TEMPLATE = `# Gate profiles: each mode is a list of argv steps (never a shell string).
# Run one with: aop gates run --feature-id <id> --mode fast
# The default profile is policy.yaml's gate_selection.default_profile (where the upstream orchestrator
# reads it too; docs/compatibility.md).
version: 1
profiles:
  default:
    description: Example gates; replace the commands with your project's.
    modes:
      fast:
        - name: node-version
          cmd: [node, --version]
      full:
        - name: node-version
          cmd: [node, --version]
          parallel_group: checks
        - name: npm-version
          cmd: [npm, --version]
          parallel_group: checks
        - name: tests
          cmd: [npm, test]
          depends_on: [node-version, npm-version]
          timeout_seconds: 600
`;
