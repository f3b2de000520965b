import { ApiError } from './errors.js';

/** The request body as a JSON object; anything else is `400 bad_request`. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (!text.trim()) throw new ApiError(400, 'bad_request', 'A JSON object body is required');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'bad_request', `Malformed JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(400, 'bad_request', 'The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
