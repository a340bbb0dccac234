// What a view of the state joins with besides the fold: each feature's evidence chain and resets, and the
// git history of .checkpoints/ — each read once per question (docs/replay.md, "Time travel").
import { READ_LIMITS } from "../../store/read-limits.js";
import { readTextBounded } from "../../store/read-text-bounded.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readChainEntries } from "../evidence/index.js";
import { CheckpointHistory } from "./checkpoint-git.js";
import type { FoldState, RecordedStep, StepEntry } from "./state-fold.js";
import type { ChainPoint, ViewContext } from "./state-view.js";
import type { Unknown } from "./state-types.js";

/** The chains, resets and git history a view joins with, each read once. */
export class ViewSources {
  private readonly chains = new Map<string, ChainPoint[] | Unknown>();
  private readonly resets = new Map<string, string[]>();
  readonly history: CheckpointHistory;

  constructor(
    private readonly layout: WorkspaceLayout,
    private readonly gates: { entry: StepEntry; answer: RecordedStep["answer"] }[],
    history?: CheckpointHistory,
  ) {
    this.history = history ?? new CheckpointHistory(layout);
  }

  context(state: FoldState, sequence: number, ts: string): ViewContext {
    const features = new Set([...Object.keys(state.features), ...Object.keys(state.evidence)]);
    const ctx: ViewContext = { ts, chains: {}, resets: {}, claimedAfter: {}, git: this.history.at(ts) };
    for (const f of features) {
      ctx.chains[f] = this.chain(f);
      ctx.resets[f] = this.resetTimes(f);
    }
    // Chain entries this run's own later gates appended are after the step, whatever their time says.
    for (const { entry, answer } of this.gates) {
      if (entry.sequence <= sequence || answer === null || !("envelope" in answer)) continue;
      const env = answer.envelope;
      const report = (env.ok ? env.data : env.error.details) as { feature_id?: unknown; chain?: { sequence?: unknown } | null } | undefined;
      const seq = report?.chain?.sequence;
      if (typeof report?.feature_id === "string" && typeof seq === "number") ctx.claimedAfter[report.feature_id] = Math.min(ctx.claimedAfter[report.feature_id] ?? Infinity, seq);
    }
    return ctx;
  }

  private chain(featureId: string): ChainPoint[] | Unknown {
    let chain = this.chains.get(featureId);
    if (!chain) {
      try {
        chain = [...readChainEntries(this.layout, featureId)].map(({ sequence, chain_hash, created_at }) => ({ sequence, chain_hash, created_at }));
      } catch (err) {
        chain = { unknown: `${featureId}'s evidence chain cannot be read: ${err instanceof Error ? err.message : String(err)}` };
      }
      this.chains.set(featureId, chain);
    }
    return chain;
  }

  private resetTimes(featureId: string): string[] {
    let times = this.resets.get(featureId);
    if (!times) {
      times = [];
      try {
        const read = readTextBounded(this.layout.chainResetsFile(featureId), READ_LIMITS.smallRecord);
        if (read.status === "ok") {
          for (const line of read.text.split("\n")) {
            try {
              const at = (JSON.parse(line) as { reset_at?: unknown }).reset_at;
              if (typeof at === "string") times.push(at);
            } catch {
              // a torn or foreign line names no reset
            }
          }
        }
      } catch {
        // an unreadable resets file: the chain is judged by its own entries
      }
      this.resets.set(featureId, times);
    }
    return times;
  }
}
