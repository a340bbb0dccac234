// Starter files written by `aop init`. Both must load cleanly (a test checks it).

export const POLICY_TEMPLATE = `# aop-continuity policy for this workspace.
# Deep-merged over the bundled defaults: objects merge, arrays replace, an explicit null replaces.
# Only list what you change. Check it with: aop config check
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
    # attest: true                # sign every gate run as an in-toto attestation (run \`aop keys init\` first);
    #                             # aop-only: the upstream orchestrator refuses this key (docs/compatibility.md)
  # export:                       # where \`aop export otlp\` sends when no flag or OTEL_* variable says (docs/otel.md)
  #   otlp:
  #     enabled: true
  #     endpoint: http://localhost:4318/v1/traces
  #     protocol: http/protobuf   # or http/json
  #     headers_env: OTLP_HEADERS # the NAME of a variable holding name=value,... (never the secret itself)

innovation:
  replay_debugger: true
  tamper_evident_evidence: true

diagnostics:
  doctor:
    strict_fails_on: warning      # critical | warning: what makes \`aop doctor --strict\` fail (a broken chain is a warning)

# rbac:                           # narrow a role's tools (a list replaces the default list)
#   builder: [feature.get, feature.list, run.status, gates.run, evidence.latest]
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
