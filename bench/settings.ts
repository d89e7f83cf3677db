import type { Config } from '../config/index.js';

/** The warehouse and status sync settings the benchmarks run with. */
export const SHIPMENT_SETTINGS: Config['shipment'] = {
  sender: {
    name: 'Warehouse Desk',
    company: 'Bench Shop ApS',
    phone: '+4570000000',
    email: 'warehouse@example.com',
    street: 'Lagervej 2',
    city: 'Odense',
    postalCode: '5000',
    countryCode: 'DK',
  },
  sendReceiverEmail: false,
  documentTag: 'document',
  contentDescription: undefined,
  defaultWeightKg: 0.5,
  defaultBox: { lengthCm: 30, widthCm: 20, heightCm: 10 },
};

export const SYNC_SETTINGS: Config['sync'] = {
  intervalMs: 300_000,
  lookbackDays: 60,
  reportProgress: true,
  notifyCustomer: true,
  tracking: { companies: {}, urlTemplates: {} },
};
