/**
 * A spending cap for one run of model requests: charge each answer's usage as it arrives; once the tokens or the
 * estimated cost go over the cap, `charge` throws MODEL_BUDGET_EXCEEDED (and so does every later charge or
 * `check`), so a loop (or mapLimit) stops starting requests and the caller can keep what it already has.
 */
import { InterError } from "../core/errors.js";
import { estimateCost, priceOf } from "./pricing.js";
import type { Usage } from "./types.js";

export interface BudgetLimits {
  /** Input plus output tokens, over all requests. */
  maxTokens?: number;
  /** Estimated USD (estimateCost), over all requests. A model without a known price cannot be charged against it. */
  maxCostUsd?: number;
}

export interface Spent {
  inputTokens: number;
  outputTokens: number;
  /** Estimated USD; null once any charged model had no known price. */
  usd: number | null;
}

export class Budget {
  private inputTokens = 0;
  private outputTokens = 0;
  private usd: number | null = 0;
  private over: string | undefined;

  constructor(readonly limits: BudgetLimits = {}) {
    for (const [name, value] of Object.entries(limits)) {
      if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value >= 0))
        throw new InterError(
          "USAGE_ERROR",
          `The model budget's ${name} must be a number ≥ 0, not ${String(value)}.`,
          "Give the budget as a plain number (tokens, or US dollars for a cost cap).",
        );
    }
  }

  /**
   * Whether spending on `model` can be held to this budget: false when a cost cap is set and the model has no known
   * price. Check before the first request; `charge` refuses such a model.
   */
  admits(model: string): boolean {
    return this.limits.maxCostUsd === undefined || priceOf(model) !== undefined;
  }

  /** Adds an answer's usage (it was spent whatever happens next), then throws MODEL_BUDGET_EXCEEDED if over the cap. */
  charge(model: string, usage: Usage): Spent {
    const cost = estimateCost(model, usage);
    if (this.limits.maxCostUsd !== undefined && cost.usd === null) {
      throw new InterError(
        "USAGE_ERROR",
        `A cost cap was set but ${cost.basis.replace(/; .*/, "")}.`,
        "Cap the run with a token budget for this model, or use a model from the price table (src/model/pricing.ts).",
        { model },
      );
    }
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
    this.usd = this.usd === null || cost.usd === null ? null : this.usd + cost.usd;
    const tokens = this.inputTokens + this.outputTokens;
    if (!this.over && this.limits.maxTokens !== undefined && tokens > this.limits.maxTokens)
      this.over = `${tokens} tokens spent, over the budget of ${this.limits.maxTokens}`;
    if (!this.over && this.limits.maxCostUsd !== undefined && this.usd !== null && this.usd > this.limits.maxCostUsd)
      this.over = `an estimated $${this.usd.toFixed(4)} spent, over the budget of $${this.limits.maxCostUsd}`;
    this.check();
    return this.spent();
  }

  /** Throws MODEL_BUDGET_EXCEEDED if an earlier charge went over the cap; call it before starting a request. */
  check(): void {
    if (this.over)
      throw new InterError(
        "MODEL_BUDGET_EXCEEDED",
        `The model budget is used up: ${this.over}. No further model requests were sent.`,
        "Answers received so far are kept; raise the budget (token or cost cap) and run again to ask for the rest.",
        { spent: this.spent(), limits: { ...this.limits } },
      );
  }

  /** True once a charge went over the cap. */
  get exceeded(): boolean {
    return this.over !== undefined;
  }

  spent(): Spent {
    return { inputTokens: this.inputTokens, outputTokens: this.outputTokens, usd: this.usd };
  }
}
