// What the views need from the page's controller: the runs, navigation, links, live fetches, features.
import type { LinkState } from "../deep-link.js";
import type { FeaturesView } from "../report-types.js";
import type { RunState, RunStore } from "./run-store.js";

export interface AppContext {
  store: RunStore;
  /** True on a page served by `aop report --serve`. */
  live: boolean;
  /** Change the view state (the address fragment follows). */
  navigate(patch: Partial<LinkState>): void;
  /** The page's address with a fragment naming `patch` over an empty state. */
  linkTo(patch: Partial<LinkState>): string;
  /** Position of the entry with `sequence` in the run's list, or null. */
  indexOfSequence(run: RunState, sequence: number): number | null;
  fetchLedger: ((operationId: string) => void) | null;
  /** The features with their chains, as the report was built. */
  features: FeaturesView;
}
