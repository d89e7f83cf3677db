import './fetch-routing.js';
import { type ApiVersion, LogSeverity, type Shopify, shopifyApi } from '@shopify/shopify-api';
import type { Logger } from '../log.js';

export type ShopifyAuth =
  | { kind: 'accessToken'; accessToken: string }
  | { kind: 'clientCredentials'; clientId: string; clientSecret: string };

/**
 * A fixed token is a custom store app, its secret the webhook secret. Client credentials must not
 * be one: that mode sends `adminApiAccessToken` instead of the session's token.
 */
export function createAdminShopify(options: {
  auth: ShopifyAuth;
  apiVersion: string;
  webhookSecret: string;
  logger: Logger;
}): Shopify {
  const { auth } = options;
  const log = options.logger.child({ library: 'shopify-api' });
  return shopifyApi({
    isEmbeddedApp: false,
    // A background service has no app URL; the library insists on one for OAuth redirects.
    hostName: 'localhost',
    apiVersion: options.apiVersion as ApiVersion,
    // The library's own log lines, in pino; its "info" chatter becomes debug.
    logger: {
      level: LogSeverity.Debug,
      // Must stay off: the library's request log prints headers (the access token) and the
      // client-credentials body (the client secret).
      httpRequests: false,
      log: (severity: LogSeverity, message: string) => {
        if (severity === LogSeverity.Error) log.error(message);
        else if (severity === LogSeverity.Warning) log.warn(message);
        else log.debug(message);
      },
    },
    _logDisabledFutureFlags: false,
    ...(auth.kind === 'accessToken'
      ? {
          isCustomStoreApp: true,
          apiSecretKey: options.webhookSecret,
          adminApiAccessToken: auth.accessToken,
        }
      : { isCustomStoreApp: false, apiKey: auth.clientId, apiSecretKey: auth.clientSecret }),
  });
}
