// Human renderings of `aop keys`: ids and paths only (a private key's contents are never printed).
import type { KeyInitResult, KeyList } from "../../../domains/attest/index.js";
import type { Style } from "./style.js";
import { renderTable } from "./table.js";

export function renderKeyInit(r: KeyInitResult, style: Style): string {
  return [
    `${r.private_key_created ? "created" : "using"} signing key ${style.bold(r.keyid)}`,
    `  private  ${r.private_key_path}  ${style.dim("(mode 0600; keep it out of the repository)")}`,
    `  public   ${r.public_key_path}  ${style.dim(r.public_key_created ? "(new: commit this file)" : "(already present)")}`,
  ].join("\n");
}

export function renderKeyList(list: KeyList, style: Style): string {
  const lines: string[] = [];
  if (list.keys.length === 0) lines.push("no public keys in agentic/orchestrator/keys/ (create one with `aop keys init`)");
  else {
    const rows = list.keys.map((k) => [k.keyid === list.signing_keyid ? style.green("*") : " ", `${k.keyid.slice(0, 16)}…`, k.public_key_path, k.private_key_path ?? style.dim("-")]);
    lines.push(renderTable([{ header: " " }, { header: "KEY ID" }, { header: "PUBLIC KEY" }, { header: "PRIVATE KEY (this machine)" }], rows));
  }
  lines.push(list.signing_keyid ? `signs with ${list.signing_keyid}` : `cannot sign here: ${list.signing_problem ?? "no key"}`);
  for (const p of list.problems) lines.push(style.yellow(`ignored ${p.rel_path}: ${p.reason}`));
  return lines.join("\n");
}
