import type { ShipmentRequest } from '../src/domain/shipment-contract.js';

const address = { street: 'Lagervej 1', city: 'Kolding', postal_code: '6000', country_code: 'DK' };

export function benchRequest(reference: string): ShipmentRequest {
  return {
    reference,
    order_type: 'package',
    content_description: 'Benchmark goods',
    sender: { name: 'Warehouse', phone: '+4511111111', address },
    receiver: { name: 'Receiver', phone: '+4522222222', address },
    packages: [{ quantity: 1, weight_kg: 1, length_cm: 30, width_cm: 20, height_cm: 10 }],
  };
}
