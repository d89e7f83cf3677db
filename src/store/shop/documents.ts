/**
 * The cheapest document there is (1 point): the shop's name. Sent once at start to check that
 * Shopify accepts the access token, before any order depends on it.
 */
export const SHOP_NAME_QUERY = /* GraphQL */ `
  query ShopName {
    shop {
      name
    }
  }
`;
