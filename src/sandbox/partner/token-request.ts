import type { FieldErrors } from './errors.js';
import { FieldProblems, type Fields, isBlank } from './field-problems.js';

export interface TokenRequest {
  email: string;
  password: string;
  name?: string;
}

/**
 * `POST /token`: `email` and `password` are required. Whether `name` is, the contract does not
 * say; the sandbox accepts it missing and checks it when present.
 */
export function checkTokenRequest(
  body: Fields,
): { ok: true; request: TokenRequest } | { ok: false; errors: FieldErrors } {
  const problems = new FieldProblems();
  for (const field of ['email', 'password'] as const) {
    if (isBlank(body[field])) problems.add(field, `The ${field} field is required.`);
    else if (typeof body[field] !== 'string') problems.add(field, `The ${field} must be a string.`);
  }
  const { name } = body;
  if (name !== undefined && typeof name !== 'string') {
    problems.add('name', 'The name must be a string.');
  } else if (typeof name === 'string' && [...name].length > 255) {
    problems.add('name', 'The name may not be greater than 255 characters.');
  }
  if (!problems.empty) return { ok: false, errors: problems.errors };
  return {
    ok: true,
    request: {
      email: (body.email as string).trim(),
      password: body.password as string,
      ...(typeof name === 'string' ? { name } : {}),
    },
  };
}
