import type { Config } from '../../config/index.js';

/** Shopify links tracking only for an exactly spelt supported company, or with a URL. */

/** Lower-cased carrier name → Shopify's supported company (FulfillmentTrackingInfo.company). */
export const BUILT_IN_TRACKING_COMPANIES: Readonly<Record<string, string>> = {
  postnord: 'PostNord DK',
  'postnord dk': 'PostNord DK',
  'postnord denmark': 'PostNord DK',
  'postnord se': 'PostNord SE',
  'postnord sweden': 'PostNord SE',
  'postnord no': 'PostNord NO',
  'postnord norway': 'PostNord NO',
  gls: 'GLS',
  'gls denmark': 'GLS',
  dao: 'DAO',
  dao365: 'DAO',
  bring: 'Bring',
  'posten bring': 'Bring',
  budbee: 'Budbee',
  'dhl express': 'DHL Express',
  dhl: 'DHL Express',
  'dhl ecommerce': 'DHL eCommerce',
  'deutsche post': 'Deutsche Post',
  dpd: 'DPD',
  'dpd uk': 'DPD UK',
  ups: 'UPS',
  fedex: 'FedEx',
  usps: 'USPS',
  'royal mail': 'Royal Mail',
  posti: 'Posti',
  postnl: 'PostNL International',
  colissimo: 'Colissimo',
};

const lower = (table: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(table).map(([k, v]) => [k.trim().toLowerCase(), v]));

/** Configured companies go on top of the built-in table; a URL template puts the number at `{number}`. */
export function trackingFor(settings: Config['sync']['tracking']) {
  const companies = { ...BUILT_IN_TRACKING_COMPANIES, ...lower(settings.companies) };
  const templates = lower(settings.urlTemplates);
  return (carrier: string | null, number: string) => {
    const name = carrier?.trim() ?? '';
    const key = name.toLowerCase();
    const template = templates[key];
    return {
      company: companies[key] ?? (name || 'Other'),
      number,
      ...(template ? { url: template.replaceAll('{number}', encodeURIComponent(number)) } : {}),
    };
  };
}
