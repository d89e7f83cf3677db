/** The bucket's size and refill, as Shopify reports them in throttleStatus. */
export interface CostBucketOptions {
  /** Points the bucket holds when full (Shopify: 1,000 on standard plans, 2,000 on some). */
  maximumAvailable: number;
  /** Points restored a second (Shopify: 100 standard, 200 Advanced, 1,000 Plus). */
  restoreRate: number;
}

/** What the bucket saw, for tests and the benchmark. */
export interface CostBucketStats {
  /** Requests refused THROTTLED because the bucket held less than their requested cost. */
  throttled: number;
  /** Points charged in the end (actual costs). */
  used: number;
  /** The lowest the bucket went right after charging a request's requested cost. */
  lowest: number;
}

/**
 * Shopify's calculated-cost bucket for one shop: a query needs its whole requested cost
 * available, is charged it before it runs and refunded down to its actual cost after; the bucket
 * refills at `restoreRate` a second up to `maximumAvailable`.
 */
export class CostBucket {
  private available: number;
  private at: number;
  readonly stats: CostBucketStats;

  constructor(
    readonly options: CostBucketOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.available = options.maximumAvailable;
    this.at = now();
    this.stats = { throttled: 0, used: 0, lowest: options.maximumAvailable };
  }

  /** Charges `requested` up front, or refuses (false) when the bucket holds less. */
  charge(requested: number): boolean {
    this.restore();
    if (this.available < requested) {
      this.stats.throttled += 1;
      return false;
    }
    this.available -= requested;
    this.stats.lowest = Math.min(this.stats.lowest, this.available);
    return true;
  }

  /** After the query ran: gives back what it was charged beyond its actual cost. */
  settle(requested: number, actual: number): void {
    this.restore();
    this.stats.used += actual;
    this.available = Math.min(this.options.maximumAvailable, this.available + requested - actual);
  }

  /** Shopify's throttleStatus: whole points, as it reports them. */
  throttleStatus() {
    this.restore();
    return {
      maximumAvailable: this.options.maximumAvailable,
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.options.restoreRate,
    };
  }

  private restore(): void {
    const now = this.now();
    this.available = Math.min(
      this.options.maximumAvailable,
      this.available + ((now - this.at) / 1000) * this.options.restoreRate,
    );
    this.at = now;
  }
}
