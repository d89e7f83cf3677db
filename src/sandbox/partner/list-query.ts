import { parseCreatedAfter } from './created-after.js';
import type { FieldErrors } from './errors.js';
import { FieldProblems, isFields } from './field-problems.js';
import { CONTRACT_LIMITS } from './limits.js';

export interface ListQuery {
  status?: string;
  createdAfter?: Date;
  perPage: number;
  page: number;
}

export type ListQueryCheck = { ok: true; query: ListQuery } | { ok: false; errors: FieldErrors };

/**
 * `GET /shipments` parameters. The contract does not say how bad values are answered; the
 * sandbox refuses them with 422 keyed by parameter, all at once. Unknown parameters are ignored.
 */
export function checkListQuery(
  raw: unknown,
  isKnownStatus: (status: string) => boolean,
): ListQueryCheck {
  const query = isFields(raw) ? raw : {};
  const problems = new FieldProblems();

  const status = single(query, 'status', problems);
  if (status !== undefined && !isKnownStatus(status)) {
    problems.add('status', 'The selected status is invalid.');
  }

  let createdAfter: Date | undefined;
  const createdAfterText = single(query, 'created_after', problems);
  if (createdAfterText !== undefined) {
    createdAfter = parseCreatedAfter(createdAfterText);
    if (!createdAfter) {
      problems.add(
        'created_after',
        // An unencoded "+" of an offset arrives as a space: say so, it is the usual cause.
        createdAfterText.includes(' ')
          ? 'The created_after is not a valid ISO 8601 date or date-time (encode "+" as %2B).'
          : 'The created_after is not a valid ISO 8601 date or date-time.',
      );
    }
  }

  const perPage = wholeNumber(query, 'per_page', problems, 1, CONTRACT_LIMITS.perPageMax);
  const page = wholeNumber(query, 'page', problems, 1);

  if (!problems.empty) return { ok: false, errors: problems.errors };
  return {
    ok: true,
    query: {
      ...(status === undefined ? {} : { status }),
      ...(createdAfter === undefined ? {} : { createdAfter }),
      perPage: perPage ?? CONTRACT_LIMITS.perPageDefault,
      page: page ?? 1,
    },
  };
}

/** The parameter's one value; undefined when absent. */
function single(
  query: Record<string, unknown>,
  name: string,
  problems: FieldProblems,
): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    problems.add(name, `The ${name} may be given only once.`);
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.add(name, `The ${name} must be a string.`);
    return undefined;
  }
  return value;
}

function wholeNumber(
  query: Record<string, unknown>,
  name: string,
  problems: FieldProblems,
  min: number,
  max?: number,
): number | undefined {
  const text = single(query, name, problems);
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text)) {
    problems.add(name, `The ${name} must be an integer.`);
    return undefined;
  }
  const value = Number(text);
  if (value < min || (max !== undefined && value > max)) {
    problems.add(
      name,
      max === undefined
        ? `The ${name} must be at least ${min}.`
        : `The ${name} must be between ${min} and ${max}.`,
    );
    return undefined;
  }
  return value;
}
