import { describe, expect, it } from 'vitest';
import { trackingFor } from '../../src/domain/tracking-company.js';

describe('trackingFor', () => {
  const none = trackingFor({ companies: {}, urlTemplates: {} });

  it("maps a provider's carrier name onto Shopify's supported company, whatever its case", () => {
    expect(none('POSTNORD', '0012')).toEqual({ company: 'PostNord DK', number: '0012' });
    expect(none('gls', '77')).toEqual({ company: 'GLS', number: '77' });
  });

  it('keeps an unknown carrier as sent, with its number, and no url', () => {
    expect(none('Nordic Freight', 'NF-1')).toEqual({ company: 'Nordic Freight', number: 'NF-1' });
    expect(none(null, 'X1')).toEqual({ company: 'Other', number: 'X1' });
  });

  it('lets the settings extend and override the table, and adds a url from a template', () => {
    const tracking = trackingFor({
      companies: { 'PN Parcel': 'PostNord SE', PostNord: 'PostNord NO' },
      urlTemplates: { 'nordic freight': 'https://track.example/{number}?lang=en' },
    });
    expect(tracking('pn parcel', '1')).toEqual({ company: 'PostNord SE', number: '1' });
    expect(tracking('PostNord', '2').company).toBe('PostNord NO');
    expect(tracking('Nordic Freight', 'A B/1')).toEqual({
      company: 'Nordic Freight',
      number: 'A B/1',
      url: 'https://track.example/A%20B%2F1?lang=en',
    });
  });
});
