import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { messageOf } from '../error-message.js';

/**
 * Records and job ids are keyed by order id alone, so an order registered in the sandbox would
 * never be sent in production. The first start stores a hash of address and token; another address
 * is refused, another token accepted only if it can read a shipment registered here (only its
 * account can).
 */

export interface PartnerEnvironment {
  /** Including /api/v1. */
  apiUrl: string;
  token: string;
}

export interface StoredEnvironment {
  fingerprint: string;
  /** Without credentials. */
  apiUrl: string;
  claimedAt: string;
}

export type ClaimOutcome =
  | { outcome: 'matched' }
  /** `earlierRegistrations`: orders already registered under the prefix when it was claimed. */
  | { outcome: 'claimed'; earlierRegistrations: number }
  /** The new token read `checkedReference` (null: nothing registered yet, nothing to mix up). */
  | { outcome: 'token_adopted'; checkedReference: string | null };

/** Throws when the provider gave neither 200 nor 404. */
export type ShipmentReader = (reference: string) => Promise<'found' | 'not_found'>;

/** Equal for the same environment and account, useless to a thief. */
export function environmentFingerprint(environment: PartnerEnvironment): string {
  return createHash('sha256')
    .update(`${environment.apiUrl}\n${environment.token}`)
    .digest('hex')
    .slice(0, 32);
}

export function environmentKey(prefix: string): string {
  return `${prefix}:partner-environment`;
}

export class PartnerEnvironmentMismatchError extends Error {
  constructor(
    readonly prefix: string,
    readonly stored: StoredEnvironment,
    readonly configuredUrl: string,
    readonly accountCheck?: { undecided: boolean; detail: string },
  ) {
    const sameAddress = stored.apiUrl === configuredUrl;
    const choices = [
      `keep them apart: set a new QUEUE_PREFIX for this environment (e.g. ${prefix}-production); the old records stay under ${prefix}`,
      `forget them: stop every connector process using QUEUE_PREFIX=${prefix}, then run \`connector environment forget --yes\`; the next reconciliation sends the orders still open (see RECONCILE_FIRST_LOOKBACK_DAYS)`,
    ];
    if (sameAddress) {
      choices.push(
        'if you know the provider only reissued the token of the same account: run `connector environment adopt-token` to keep the records',
      );
    }
    const lead = accountCheck?.undecided
      ? 'may hold the records of another partner account'
      : 'holds the records of another partner environment or account';
    super(
      `QUEUE_PREFIX=${prefix} ${lead}: ` +
        `they were made through ${stored.apiUrl} (since ${stored.claimedAt}), and the connector is now configured with ` +
        (sameAddress ? 'the same address but another token' : configuredUrl) +
        (accountCheck ? ` (${accountCheck.detail})` : '') +
        '. Orders registered there would count as registered here and never be sent, so the connector does not start. Choose one:\n' +
        choices.map((choice) => `  - ${choice}`).join(';\n') +
        '.',
    );
    this.name = 'PartnerEnvironmentMismatchError';
  }
}

function displayUrl(apiUrl: string): string {
  return apiUrl.replace(/\/\/[^@/]*@/, '//');
}

const CLAIM = `
if redis.call('HGET', KEYS[1], 'fingerprint') then
  return redis.call('HMGET', KEYS[1], 'fingerprint', 'apiUrl', 'claimedAt')
end
redis.call('HSET', KEYS[1], 'fingerprint', ARGV[1], 'apiUrl', ARGV[2], 'claimedAt', ARGV[3])
return false
`;

export async function readPartnerEnvironment(redis: Redis, prefix: string) {
  const stored = await redis.hgetall(environmentKey(prefix));
  return stored.fingerprint ? (stored as unknown as StoredEnvironment) : null;
}

export async function claimPartnerEnvironment(
  redis: Redis,
  prefix: string,
  environment: PartnerEnvironment,
  now = new Date(),
  /** Without it, another token for the same address is refused like another address. */
  readShipment?: ShipmentReader,
  dryRun = false,
): Promise<ClaimOutcome> {
  const fingerprint = environmentFingerprint(environment);
  const apiUrl = displayUrl(environment.apiUrl);
  const existing = dryRun
    ? await readPartnerEnvironment(redis, prefix).then((s): [string, string, string] | null =>
        s ? [s.fingerprint, s.apiUrl, s.claimedAt] : null,
      )
    : ((await redis.eval(
        CLAIM,
        1,
        environmentKey(prefix),
        fingerprint,
        apiUrl,
        now.toISOString(),
      )) as [string, string, string] | null);
  if (!existing) {
    const earlierRegistrations = await redis.zcard(`${prefix}:orders:registered`);
    return { outcome: 'claimed', earlierRegistrations };
  }
  const [storedFingerprint, storedUrl, claimedAt] = existing;
  if (storedFingerprint === fingerprint) return { outcome: 'matched' };
  const stored = { fingerprint: storedFingerprint, apiUrl: storedUrl, claimedAt };
  if (storedUrl !== apiUrl || !readShipment) {
    throw new PartnerEnvironmentMismatchError(prefix, stored, apiUrl);
  }
  const reference = await newestRegisteredReference(redis, prefix);
  if (reference !== null) {
    const found = await readShipment(reference).catch((error) => {
      throw new PartnerEnvironmentMismatchError(prefix, stored, apiUrl, {
        undecided: true,
        detail: `whether it belongs to the same account could not be checked: reading shipment ${reference} with it failed (${messageOf(error)}); the next start checks again`,
      });
    });
    if (found === 'not_found') {
      throw new PartnerEnvironmentMismatchError(prefix, stored, apiUrl, {
        undecided: false,
        detail: `the provider answers 404 to it for shipment ${reference}, registered here with the old token: it belongs to another account`,
      });
    }
  }
  if (!dryRun) await adoptReissuedToken(redis, prefix, environment, now);
  return { outcome: 'token_adopted', checkedReference: reference };
}

/** The newest registrations' records may have expired: a few are tried. */
const REGISTERED_CANDIDATES = 10;

async function newestRegisteredReference(redis: Redis, prefix: string): Promise<string | null> {
  const newest = await redis.zrevrange(`${prefix}:orders:registered`, 0, REGISTERED_CANDIDATES - 1);
  for (const orderId of newest) {
    if ((await redis.hget(`${prefix}:order:${orderId}`, 'state')) === 'registered') return orderId;
  }
  return null;
}

export class AdoptTokenRefusedError extends Error {
  override name = 'AdoptTokenRefusedError';
}

/** Sandbox and production have different addresses, so a changed address is refused. */
export async function adoptReissuedToken(
  redis: Redis,
  prefix: string,
  environment: PartnerEnvironment,
  now = new Date(),
): Promise<void> {
  const stored = await readPartnerEnvironment(redis, prefix);
  const apiUrl = displayUrl(environment.apiUrl);
  if (stored && stored.apiUrl !== apiUrl) {
    throw new AdoptTokenRefusedError(
      `The records under QUEUE_PREFIX=${prefix} were made through ${stored.apiUrl}, not ${apiUrl}: another environment, not a reissued token. Use a new QUEUE_PREFIX, or \`connector environment forget --yes\`.`,
    );
  }
  await redis.hset(environmentKey(prefix), {
    fingerprint: environmentFingerprint(environment),
    apiUrl,
    claimedAt: stored?.claimedAt ?? now.toISOString(),
    tokenAdoptedAt: now.toISOString(),
  });
}
