// Tool handlers for feature.*.
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { createFeature, listFeatures, requireState, setFeatureStatus } from "./feature-store.js";

export const handlers: ToolHandlers = {
  "feature.init": async (args, ctx) => ({
    feature: await createFeature(ctx.layout, ctx.clock, args),
  }),
  "feature.get": async (args, ctx) => {
    const doc = await requireState(ctx.layout, args.feature_id);
    return { feature: doc.state, body: doc.body };
  },
  "feature.list": async (args, ctx) => ({ features: await listFeatures(ctx.layout, ctx.clock, args.status) }),
  "feature.set_status": async (args, ctx) => {
    const { state, previous_status } = await setFeatureStatus(ctx.layout, ctx.clock, args);
    return { feature: state, previous_status };
  },
};
