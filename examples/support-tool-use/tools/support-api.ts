// Tools of the support agent: ordinary ai SDK tool() definitions. The agent exposes to the model
// only the tools a case lists, and forwards the model's calls to `execute` (run in-process).
import { tool } from "ai";
import { z } from "zod";

/** Orders the `get_order` tool can see. Cases add theirs in `setup` and remove them in `teardown`. */
export const orders = new Map<string, { status: string; eligible: boolean }>();

const policies: Record<string, string> = {
  returns: "Unopened items may be returned within 30 days. Holiday purchases may be returned within 60 days.",
  shipping: "Standard shipping takes 3 to 5 business days.",
  warranty: "Electronics carry a one-year limited warranty.",
};

export const tools = {
  lookup_policy: tool({
    description: "Look up a customer-support policy by topic (returns, shipping or warranty).",
    inputSchema: z.object({ topic: z.string().describe("returns, shipping or warranty") }),
    execute: async ({ topic }) => ({ topic, policy: policies[topic] ?? "No policy on that topic." }),
  }),
  get_order: tool({
    description: "Look up an order by its ID.",
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => {
      const order = orders.get(orderId);
      return order ? { orderId, ...order } : { orderId, error: "order not found" };
    },
  }),
};
