import { SandboxError } from './errors.js';
import { type DocumentedStatus, isDocumentedStatus } from './statuses.js';

/** The forward path a shipment takes; cancellation is a side exit before dispatch. */
export const FORWARD_PATH = ['pending', 'processing', 'shipped', 'delivered'] as const;
const CANCELLABLE: readonly string[] = ['pending', 'processing'];

export const SANDBOX_CARRIER = 'PostNord';

/**
 * The statuses a shipment passes through to reach `target` from `from`, in order; a jump
 * (pending → delivered) walks every step so the history stays realistic.
 */
export function stepsTo(from: string, target?: DocumentedStatus): DocumentedStatus[] {
  if (!isDocumentedStatus(from)) return stepsFromUndocumented(from, target);
  if (target === 'cancelled') {
    if (!CANCELLABLE.includes(from)) {
      throw new SandboxError(409, `A ${from} shipment cannot be cancelled.`);
    }
    return ['cancelled'];
  }
  const position = FORWARD_PATH.indexOf(from as (typeof FORWARD_PATH)[number]);
  if (position < 0 || position === FORWARD_PATH.length - 1) {
    throw new SandboxError(409, `A ${from} shipment cannot move any further.`);
  }
  if (target === undefined) return [FORWARD_PATH[position + 1]!];
  const targetPosition = FORWARD_PATH.indexOf(target);
  if (targetPosition <= position) {
    throw new SandboxError(409, `A ${from} shipment cannot move back to ${target}.`);
  }
  return FORWARD_PATH.slice(position + 1, targetPosition + 1);
}

/** An undocumented status (say `held_at_customs`) has no place on the path: go straight to the target. */
function stepsFromUndocumented(from: string, target?: DocumentedStatus): DocumentedStatus[] {
  if (target === undefined) {
    throw new SandboxError(409, `A ${from} shipment has no next step: name the status to move to.`);
  }
  if (target === 'pending') {
    throw new SandboxError(409, `A ${from} shipment cannot move back to pending.`);
  }
  return [target];
}
