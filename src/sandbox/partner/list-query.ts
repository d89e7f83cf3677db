import { z } from 'zod';
import { KNOWN_STATUSES, LIMITS } from '../../partner/schemas.js';
import { parseCreatedAfter } from './created-after.js';

const single = (name: string) =>
  z.string({
    error: (issue) =>
      Array.isArray(issue.input)
        ? `The ${name} may be given only once.`
        : `The ${name} must be a string.`,
  });

const integer = (name: string, min: number, max?: number) =>
  single(name)
    .regex(/^-?\d+$/, `The ${name} must be an integer.`)
    .transform(Number)
    .pipe(
      max === undefined
        ? z.number().min(min, `The ${name} must be at least ${min}.`)
        : z
            .number()
            .min(min, `The ${name} must be between ${min} and ${max}.`)
            .max(max, `The ${name} must be between ${min} and ${max}.`),
    );

/** `GET /shipments` query parameters; unknown parameters are ignored, as most APIs do. */
export const listQuerySchema = z.object({
  status: single('status')
    .pipe(z.enum(KNOWN_STATUSES, { error: 'The selected status is invalid.' }))
    .optional(),
  created_after: single('created after')
    .transform((value, ctx) => {
      const instant = parseCreatedAfter(value);
      if (instant) return instant;
      ctx.addIssue({
        code: 'custom',
        message: value.includes(' ')
          ? 'The created after is not a valid ISO 8601 date or date-time (encode "+" as %2B).'
          : 'The created after is not a valid ISO 8601 date or date-time.',
      });
      return z.NEVER;
    })
    .optional(),
  per_page: integer('per page', 1, LIMITS.perPageMax).default(LIMITS.perPageDefault),
  page: integer('page', 1).default(1),
});
