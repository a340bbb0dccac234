// What the reading commands share for pulled records (docs/handoff.md, "Reading pulled records"): the
// origins under `.aop/remote/` (a folder skipped is a warning on stderr), `--origin X`, and `<origin>/<run>`.
// Pulled records are read by calling the domains directly on the origin's layout, never through a tool
// call: a tool call records itself in a timeline, and nothing may be written into a pulled folder.
import type { Origin, OriginListing } from "../../../domains/origins/index.js";
import { loadValidator } from "../../../catalog/load-validator.js";
import { schemaProblems } from "../../../catalog/schema-problems.js";
import { AopError } from "../../../core/errors.js";
import type { CliContext } from "../program/context.js";

const listings = new WeakMap<CliContext, OriginListing>();

/** Every pulled workspace, listed once per command; each folder skipped is one warning on stderr. */
export async function pulledOrigins(ctx: CliContext): Promise<OriginListing> {
  let listing = listings.get(ctx);
  if (listing === undefined) {
    const { listOrigins } = await import("../../../domains/origins/index.js");
    listing = listOrigins(ctx.layout);
    for (const w of listing.warnings) ctx.err(ctx.errStyle.yellow(`warning: ${w}`));
    listings.set(ctx, listing);
  }
  return listing;
}

/** `--origin X`: undefined (no filter), null (`local`: this workspace only) or the pulled workspace X names. */
export async function originFilter(ctx: CliContext, wanted: string | undefined): Promise<Origin | null | undefined> {
  if (wanted === undefined) return undefined;
  const { selectOrigin } = await import("../../../domains/origins/index.js");
  return selectOrigin(await pulledOrigins(ctx), wanted);
}

/** The pulled workspace `--origin X` names; `local` is refused where only pulled records make sense. */
export async function requirePulled(ctx: CliContext, wanted: string): Promise<Origin> {
  const origin = await originFilter(ctx, wanted);
  if (!origin) throw new AopError("usage_error", "--origin local is the workspace itself: leave --origin out");
  return origin;
}

/** A run reference: `<origin>/<run_id>` (a pulled run; `local/<run_id>` is a local one) or a local run id. */
export async function resolveRunRef(ctx: CliContext, ref: string): Promise<{ origin: Origin | null; runId: string }> {
  const { splitRunRef, selectOrigin } = await import("../../../domains/origins/index.js");
  const split = splitRunRef(ref);
  if (split === null) return { origin: null, runId: ref };
  return { origin: selectOrigin(await pulledOrigins(ctx), split.origin), runId: split.runId };
}

/** The arguments a tool would have checked, checked the same way for a direct read of pulled records. */
export async function checkedToolArgs(tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const validate = await loadValidator(`input/${tool}`);
  if (validate(args)) return args;
  const first = schemaProblems(validate.errors ?? [])[0];
  throw new AopError("invalid_argument", `invalid arguments for ${tool}: ${first ? `${first.path || "(root)"} ${first.message}` : "schema violation"}`);
}
