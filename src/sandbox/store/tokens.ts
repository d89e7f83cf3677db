import { randomBytes } from 'node:crypto';

/** The Admin API tokens the fake store accepts: one fixed, plus client-credentials ones. */
export class FakeTokens {
  private readonly issued = new Map<string, number>();
  /** How many client-credentials tokens were handed out. */
  issuedCount = 0;

  constructor(
    private readonly fixedToken: string,
    private readonly ttlSeconds: number,
  ) {}

  issue(): { access_token: string; expires_in: number } {
    const token = `shpat_fake_${randomBytes(12).toString('hex')}`;
    this.issued.set(token, Date.now() + this.ttlSeconds * 1000);
    this.issuedCount += 1;
    return { access_token: token, expires_in: this.ttlSeconds };
  }

  accepts(token: unknown): boolean {
    if (typeof token !== 'string') return false;
    if (token === this.fixedToken) return true;
    const expiresAt = this.issued.get(token);
    return expiresAt !== undefined && Date.now() < expiresAt;
  }

  /** Forget every issued token, as when the app's credentials are rotated. */
  revokeIssued(): void {
    this.issued.clear();
  }
}
