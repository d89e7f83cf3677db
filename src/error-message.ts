/** What a caught value says: an Error's message, else the value as text. */
export const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : String(error);
