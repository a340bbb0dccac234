// The one error for configuration that does not validate (policy.yaml, aop.yaml, gates.yaml): its first
// problem in the message, every problem in the details. Apart from the loaders, so that code which only
// refuses a known-bad configuration does not load the policy's loader with it.
import { AopError } from "../core/errors.js";
import type { ConfigProblem } from "./policy-types.js";

export function configInvalid(problems: ConfigProblem[]): AopError {
  const first = problems[0]!;
  const where = first.path === "" ? "" : ` ${first.path}`;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : "";
  return new AopError("config_invalid", `${first.file}:${where} ${first.message}${more}`, {
    details: { problems },
    hint: first.hint ?? "run `aop config check` to see every problem",
  });
}
