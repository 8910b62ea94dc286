/**
 * What a model's tokens cost, from the providers' published list prices (USD per million tokens, standard tier, no
 * batch or cache discounts, checked 2025-11). An estimate for a progress line and a `--max-cost` budget, never an
 * invoice: a model not in the table has no price (`usd: null`), and a token budget is the way to cap it.
 */
import type { Usage } from "./types.js";

interface Price {
  input: number;
  output: number;
  source: string;
}

const openai = "OpenAI list price";
const anthropic = "Anthropic list price";
const deepseek = "DeepSeek list price (cache miss)";

/** Model id → price per million tokens. Dated and alias suffixes ("-20250514", "-2025-04-14", "-latest", "-0") match their base id. */
const PRICES: Readonly<Record<string, Price>> = {
  "gpt-4.1": { input: 2, output: 8, source: openai },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, source: openai },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, source: openai },
  "gpt-4o": { input: 2.5, output: 10, source: openai },
  "gpt-4o-mini": { input: 0.15, output: 0.6, source: openai },
  "gpt-5": { input: 1.25, output: 10, source: openai },
  "gpt-5-mini": { input: 0.25, output: 2, source: openai },
  "gpt-5-nano": { input: 0.05, output: 0.4, source: openai },
  o3: { input: 2, output: 8, source: openai },
  "o4-mini": { input: 1.1, output: 4.4, source: openai },
  "deepseek-chat": { input: 0.28, output: 0.42, source: deepseek },
  "deepseek-reasoner": { input: 0.28, output: 0.42, source: deepseek },
  "claude-opus-4-5": { input: 5, output: 25, source: anthropic },
  "claude-opus-4-1": { input: 15, output: 75, source: anthropic },
  "claude-opus-4": { input: 15, output: 75, source: anthropic },
  "claude-sonnet-4-5": { input: 3, output: 15, source: anthropic },
  "claude-sonnet-4": { input: 3, output: 15, source: anthropic },
  "claude-haiku-4-5": { input: 1, output: 5, source: anthropic },
  "claude-3-7-sonnet": { input: 3, output: 15, source: anthropic },
  "claude-3-5-haiku": { input: 0.8, output: 4, source: anthropic },
};

const SUFFIX = /^(\d{8}|\d{4}-\d{2}-\d{2}|latest|0)$/;

/** The table's entry for a model id ("openai/gpt-4.1-mini" and "claude-sonnet-4-5-20250929" included), if any. */
export function priceOf(model: string): { id: string; price: Price } | undefined {
  const lower = model.trim().toLowerCase();
  const name = lower.slice(lower.lastIndexOf("/") + 1);
  let best: string | undefined;
  for (const id of Object.keys(PRICES)) {
    if (name === id || (name.startsWith(`${id}-`) && SUFFIX.test(name.slice(id.length + 1))))
      if (!best || id.length > best.length) best = id;
  }
  return best ? { id: best, price: PRICES[best]! } : undefined;
}

const dollars = (n: number) => `$${n.toFixed(2).replace(/\.?0+$/, "") || "0"}`;

/** The estimated cost of `usage` on `model`; `usd` is null for a model without a known price, `basis` says which. */
export function estimateCost(model: string, usage: Usage): { usd: number | null; basis: string } {
  const found = priceOf(model);
  if (!found) return { usd: null, basis: `no price known for "${model}"; cap it with a token budget instead` };
  const { id, price } = found;
  const usd = (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
  return {
    usd,
    basis: `${price.source} for ${id}: ${dollars(price.input)} in / ${dollars(price.output)} out per million tokens`,
  };
}
