// Tool handlers for feature.*.
import type { ToolHandlers } from "../../catalog/tool-types.js";
import type { FeatureStatus } from "./feature-index.js";
import { createFeature, listFeatures, requireState, setFeatureStatus } from "./feature-store.js";

export const handlers: ToolHandlers = {
  "feature.init": async (args: { feature_id: string; title?: string; description?: string }, ctx) => ({
    feature: await createFeature(ctx.layout, ctx.clock, args),
  }),
  "feature.get": async (args: { feature_id: string }, ctx) => {
    const doc = await requireState(ctx.layout, args.feature_id);
    return { feature: doc.state, body: doc.body };
  },
  "feature.list": async (args: { status?: FeatureStatus }, ctx) => ({ features: await listFeatures(ctx.layout, ctx.clock, args.status) }),
  "feature.set_status": async (args: { feature_id: string; status: FeatureStatus; expected_version?: number }, ctx) => {
    const { state, previous_status } = await setFeatureStatus(ctx.layout, ctx.clock, args);
    return { feature: state, previous_status };
  },
};
