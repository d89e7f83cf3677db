import nock from 'nock';
import { GRAPHQL_PATH, SHOP_ORIGIN } from './helpers.js';

export type GraphqlBody = { query: string; variables?: Record<string, unknown> };

/** pageInfo of a connection's last page. */
export const LAST_PAGE = { hasNextPage: false, endCursor: null };

/** Answers the next GraphQL request with `reply` and records the request body. */
export function answer(reply: unknown, status = 200, origin = SHOP_ORIGIN) {
  const requests: GraphqlBody[] = [];
  const scope = nock(origin)
    .post(GRAPHQL_PATH)
    .reply(status, (_uri, body) => {
      requests.push(body as GraphqlBody);
      return reply as nock.Body;
    });
  return { scope, requests };
}
