import { describe, expect, it } from 'vitest';
import { buildShipmentRequest, formatFieldErrors } from '../../src/domain/shipment-request.js';
import { anAddress, anItem, anOrder, someSettings } from './builders.js';

describe('formatFieldErrors', () => {
  it('writes one line per field, messages of a field side by side', () => {
    const text = formatFieldErrors({
      'receiver.address.postal_code': ["The order's shipping address has no postal code."],
      packages: ['First problem.', 'Second\nproblem.'],
    });
    expect(text).toBe(
      "receiver.address.postal_code: The order's shipping address has no postal code.\n" +
        'packages: First problem. Second problem.',
    );
  });

  it('shows a whole-request error without a field name', () => {
    expect(formatFieldErrors({ _: ['The request is invalid.'] })).toBe('The request is invalid.');
  });

  it('is empty when there is nothing to report', () => {
    expect(formatFieldErrors({})).toBe('');
  });

  it("never includes the receiver's personal data", () => {
    const order = anOrder({
      phone: null,
      email: 'ada.secret@example.com',
      shippingAddress: anAddress({
        name: 'Ada Secretname',
        address1: 'Hemmeligvej 99',
        zip: null,
        phone: null,
        countryCode: 'DNK',
      }),
      lineItems: [anItem({ title: 'Anvil', weight: { value: 45, unit: 'KILOGRAMS' } })],
    });
    const result = buildShipmentRequest(order, someSettings({ sendReceiverEmail: true }));
    if (result.ok) throw new Error('expected mapping errors');
    const text = formatFieldErrors(result.errors);

    expect(text.split('\n')).toHaveLength(4);
    for (const personal of ['Ada', 'Secretname', 'Hemmeligvej', 'København', 'ada.secret', 'DNK']) {
      expect(text).not.toContain(personal);
    }
  });
});
