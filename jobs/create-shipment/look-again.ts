import { JobRefusedError } from '../../src/queue/failure-policy.js';
import {
  type RegisterOutcome,
  type RegisterRun,
  type RegisterShipmentDeps,
  registerShipment,
} from './register-shipment.js';

/**
 * Looks one run may take after its first. Each answers the events that came during the look
 * before it, so only an order changed again and again while it is being registered uses them up;
 * the next event or reconciliation pass then looks again.
 */
export const MAX_LOOKS_AGAIN = 3;

/**
 * Registers the order, then looks at it once more whenever an event came while it was being
 * looked at (the intake calls `records.requestRerun` for an order whose job is running), whatever
 * the outcome: a registered order may just have been cancelled (flag it), a refused one fixed
 * (try again), a skipped one paid. A look that throws anything but a refusal ends the run: BullMQ
 * runs the job again (a retry, a wait, a pause), and that run loads the order afresh.
 */
export async function registerLookingAgain(
  orderId: string,
  deps: RegisterShipmentDeps,
  run: RegisterRun = {},
): Promise<RegisterOutcome> {
  // An event that came before the order is loaded is answered by this run's first look.
  await deps.records.takeRerun(orderId);
  for (let look = 0; ; look++) {
    let outcome: RegisterOutcome | undefined;
    let refusal: JobRefusedError | undefined;
    try {
      outcome = await registerShipment(orderId, deps, run);
    } catch (error) {
      if (!(error instanceof JobRefusedError)) throw error;
      refusal = error;
    }
    const changed = await deps.records.takeRerun(orderId);
    if (changed && look < MAX_LOOKS_AGAIN) {
      deps.logger.info(
        { orderId, outcome: outcome?.outcome ?? 'refused' },
        'order changed while it was being registered: looking again',
      );
      continue;
    }
    if (changed) {
      deps.logger.warn(
        { orderId, looks: look + 1 },
        'order keeps changing while it is being registered: the next event or reconciliation pass looks again',
      );
    }
    if (refusal) throw refusal;
    return outcome!;
  }
}
