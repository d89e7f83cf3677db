import { randomBytes } from 'node:crypto';
import { SandboxError } from './errors.js';

/** A partner account as the provider's panel would hold it. */
export interface SandboxAccount {
  email: string;
  password: string;
  /** The account name returned in the token record. */
  name: string;
  /** A pre-issued token, so demos and tests need no exchange. */
  token: string;
}

/** Fixed, documented sandbox credentials (docs/sandbox.md). Never valid anywhere else. */
export const SEEDED_ACCOUNTS: readonly SandboxAccount[] = Object.freeze([
  Object.freeze({
    email: 'demo@sandbox.local',
    password: 'sandbox-password',
    name: 'Demo Shop ApS',
    token: 'sbx_demo_token',
  }),
  Object.freeze({
    email: 'other@sandbox.local',
    password: 'other-password',
    name: 'Other Partner A/S',
    token: 'sbx_other_token',
  }),
]);

export interface IssuedToken {
  token: string;
  accountEmail: string;
  /** The integration label sent to `POST /token`. */
  label: string;
  createdAt: Date;
  revoked: boolean;
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Accounts and their tokens; a token identifies exactly one account and lives until revoked. */
export class AccountRegistry {
  private readonly accounts = new Map<string, SandboxAccount>();
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(
    seeded: readonly SandboxAccount[],
    private readonly now: () => Date,
  ) {
    for (const account of seeded) {
      this.accounts.set(normalizeEmail(account.email), account);
      this.tokens.set(account.token, {
        token: account.token,
        accountEmail: account.email,
        label: 'pre-issued sandbox token',
        createdAt: now(),
        revoked: false,
      });
    }
  }

  list(): SandboxAccount[] {
    return [...this.accounts.values()];
  }

  account(email: string): SandboxAccount | undefined {
    return this.accounts.get(normalizeEmail(email));
  }

  /** The account when email and password match, else undefined. */
  authenticate(email: string, password: string): SandboxAccount | undefined {
    const account = this.account(email);
    return account && account.password === password ? account : undefined;
  }

  issue(accountEmail: string, label = 'sandbox'): IssuedToken {
    const account = this.account(accountEmail);
    if (!account) throw new SandboxError(404, `No sandbox account ${accountEmail}.`);
    const issued: IssuedToken = {
      token: `sbx_${randomBytes(20).toString('hex')}`,
      accountEmail: account.email,
      label,
      createdAt: this.now(),
      revoked: false,
    };
    this.tokens.set(issued.token, issued);
    return issued;
  }

  /** Returns false when the token was never issued. */
  revoke(token: string): boolean {
    const issued = this.tokens.get(token);
    if (!issued) return false;
    issued.revoked = true;
    return true;
  }

  /** The owning account of a live token; undefined for unknown or revoked tokens. */
  accountForToken(token: string): SandboxAccount | undefined {
    const issued = this.tokens.get(token);
    if (!issued || issued.revoked) return undefined;
    return this.account(issued.accountEmail);
  }
}
