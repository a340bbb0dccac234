// aop keys init | list: the Ed25519 key that signs attestations and anchors. Local setup, not a kernel
// tool: the private key belongs to the person or machine, only its public key to the workspace.
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";

export function register(program: Command, summary: string): void {
  const keys = program.command("keys").description(summary).addHelpText("after", examples("aop keys init", "aop keys list"));

  keys
    .command("init")
    .description("create the signing key (or reuse this workspace's) and write its public key to agentic/orchestrator/keys/")
    .option("--new", "make a new key even if one is set up (the old public key stays, so older signatures still verify)")
    .addHelpText(
      "after",
      examples("aop keys init", "AOP_SIGNING_KEY=/secure/aop-ci.key aop keys init") +
        "\nThe private key (PKCS#8 PEM, mode 0600) goes to $AOP_SIGNING_KEY, else $XDG_CONFIG_HOME/aop/keys/<keyid>.key\n(~/.config when XDG_CONFIG_HOME is unset), never inside the workspace or any git work tree (refused:\nsigning_key_misplaced). Commit the public key; never commit the private one.\n",
    )
    .action(
      runCommand(async (ctx, opts) => {
        const { initSigningKey, processKeyEnvironment } = await import("../../../domains/attest/index.js");
        const result = initSigningKey(ctx.layout, processKeyEnvironment(), { fresh: opts.new === true });
        if (ctx.json) return ctx.printJson(result);
        const { renderKeyInit } = await import("../output/keys-format.js");
        ctx.out(renderKeyInit(result, ctx.style));
      }),
    );

  keys
    .command("list")
    .description("list the committed public keys, which of them this machine can sign with, and the one it signs with")
    .addHelpText("after", examples("aop keys list", "aop keys list --json"))
    .action(
      runCommand(async (ctx) => {
        const { listKeys, processKeyEnvironment } = await import("../../../domains/attest/index.js");
        const list = listKeys(ctx.layout, processKeyEnvironment());
        if (ctx.json) return ctx.printJson(list);
        const { renderKeyList } = await import("../output/keys-format.js");
        ctx.out(renderKeyList(list, ctx.style));
      }),
    );
}
