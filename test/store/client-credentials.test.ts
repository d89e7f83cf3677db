import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreAuthError, StoreRequestError } from '../../src/store/errors.js';
import { capturingLogger, GRAPHQL_PATH, orderNode, SHOP_ORIGIN, testClient } from './helpers.js';

const TOKEN_PATH = '/admin/oauth/access_token';
const CLIENT_ID = 'client-id-1';
const CLIENT_SECRET = 'client-secret-1';
const auth = {
  kind: 'clientCredentials',
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
} as const;

/** A token endpoint that hands out token-1, token-2, … and counts requests. */
function tokenEndpoint(options: { expiresIn?: number; origin?: string; prefix?: string } = {}) {
  const issued: string[] = [];
  const bodies: unknown[] = [];
  nock(options.origin ?? SHOP_ORIGIN)
    .post(TOKEN_PATH)
    .times(10)
    .reply(200, (_uri, body) => {
      bodies.push(body);
      const token = `${options.prefix ?? 'token'}-${issued.length + 1}`;
      issued.push(token);
      return {
        access_token: token,
        scope: 'read_orders,write_orders',
        ...(options.expiresIn === undefined ? {} : { expires_in: options.expiresIn }),
      };
    });
  return { issued, bodies };
}

/** GraphQL that answers every request and records which token each one carried. */
function graphqlRecordingTokens(origin = SHOP_ORIGIN) {
  const tokens: string[] = [];
  nock(origin)
    .post(GRAPHQL_PATH)
    .times(20)
    .reply(function () {
      tokens.push(String(this.req.headers['x-shopify-access-token']));
      return [200, { data: { order: orderNode() } }];
    });
  return tokens;
}

afterEach(() => {
  nock.cleanAll();
});

describe('client credentials', () => {
  it('fetches one token for concurrent first requests and sends it on each', async () => {
    const { issued, bodies } = tokenEndpoint({ expiresIn: 86399 });
    const tokens = graphqlRecordingTokens();
    const client = testClient({ auth });

    await Promise.all([client.getOrder('1'), client.getOrder('2'), client.getOrder('3')]);
    await client.getOrder('4');

    expect(issued).toEqual(['token-1']);
    expect(bodies[0]).toEqual({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      grant_type: 'client_credentials',
    });
    expect(tokens).toEqual(['token-1', 'token-1', 'token-1', 'token-1']);
  });

  it('renews about five minutes before the token expires, not earlier', async () => {
    const { issued } = tokenEndpoint({ expiresIn: 3600 });
    const tokens = graphqlRecordingTokens();
    let offsetMs = 0;
    const client = testClient({ auth, now: () => Date.now() + offsetMs });

    await client.getOrder('1');
    offsetMs = (3600 - 5 * 60 - 5) * 1000; // just before the renewal point
    await client.getOrder('1');
    offsetMs = (3600 - 5 * 60 + 5) * 1000; // just after it
    await client.getOrder('1');
    await client.getOrder('1');

    expect(issued).toEqual(['token-1', 'token-2']);
    expect(tokens).toEqual(['token-1', 'token-1', 'token-2', 'token-2']);
  });

  it('renews once after a 401 and retries the request with the new token', async () => {
    const { issued } = tokenEndpoint({ expiresIn: 86399 });
    const tokens: string[] = [];
    nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .reply(function () {
        tokens.push(String(this.req.headers['x-shopify-access-token']));
        return [401, { errors: '[API] Invalid API key or access token' }];
      })
      .post(GRAPHQL_PATH)
      .reply(function () {
        tokens.push(String(this.req.headers['x-shopify-access-token']));
        return [200, { data: { order: orderNode() } }];
      });

    const order = await testClient({ auth }).getOrder('5551234');

    expect(order?.id).toBe('5551234');
    expect(issued).toEqual(['token-1', 'token-2']);
    expect(tokens).toEqual(['token-1', 'token-2']);
  });

  it('shares one renewal between concurrent requests refused with the same token', async () => {
    const { issued } = tokenEndpoint({ expiresIn: 86399 });
    const client = testClient({ auth });
    graphqlRecordingTokens();
    await client.getOrder('1'); // token-1 in hand
    nock.cleanAll();
    const { issued: renewed } = tokenEndpoint({ expiresIn: 86399, prefix: 'renewed' });
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).times(2).reply(401, { errors: 'Invalid' });
    const retried = graphqlRecordingTokens();

    await Promise.all([client.getOrder('1'), client.getOrder('2')]);

    expect(issued).toEqual(['token-1']);
    expect(renewed).toEqual(['renewed-1']);
    expect(retried).toEqual(['renewed-1', 'renewed-1']);
  });

  it('gives up with StoreAuthError when the renewed token is refused too', async () => {
    const { issued } = tokenEndpoint({ expiresIn: 86399 });
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).times(2).reply(401, { errors: 'Invalid' });
    await expect(testClient({ auth }).getOrder('1')).rejects.toBeInstanceOf(StoreAuthError);
    expect(issued).toHaveLength(2);
  });

  it('maps refused credentials to StoreAuthError without leaking the secret', async () => {
    const { logger, lines } = capturingLogger();
    nock(SHOP_ORIGIN)
      .post(TOKEN_PATH)
      .reply(400, { error: 'invalid_client', error_description: 'Client authentication failed' });
    const error = await testClient({ auth, logger })
      .getOrder('1')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreAuthError);
    expect(error.status).toBe(400);
    for (const text of [error.message, String(error.cause), lines()]) {
      expect(text).not.toContain(CLIENT_SECRET);
    }
  });

  it('maps an unreachable token endpoint to a retryable StoreRequestError', async () => {
    nock(SHOP_ORIGIN).post(TOKEN_PATH).replyWithError('connect ECONNREFUSED');
    const error = await testClient({ auth })
      .getOrder('1')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreRequestError);
    expect(error.retryable).toBe(true);
  });

  it('keeps a token without expires_in until Shopify refuses it', async () => {
    const { issued } = tokenEndpoint();
    graphqlRecordingTokens();
    let offsetMs = 0;
    const client = testClient({ auth, now: () => Date.now() + offsetMs });
    await client.getOrder('1');
    offsetMs = 30 * 24 * 3600 * 1000;
    await client.getOrder('1');
    expect(issued).toEqual(['token-1']);
  });

  it('asks the adminApiUrl override for the token too', async () => {
    const override = 'http://127.0.0.1:4030';
    const { issued } = tokenEndpoint({ expiresIn: 86399, origin: override });
    const tokens = graphqlRecordingTokens(override);
    await testClient({ auth, adminApiUrl: override }).getOrder('1');
    expect(issued).toEqual(['token-1']);
    expect(tokens).toEqual(['token-1']);
  });
});
