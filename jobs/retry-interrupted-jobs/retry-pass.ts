// Where jobs/create-shipment/enqueue.ts takes the replay's reset from.
export { FRESH_INTERRUPTED_RETRIES } from '../redrive.js';
