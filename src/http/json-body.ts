import { ApiError } from './errors.js';

/** A JSON request body; malformed JSON is `400 bad_request`. */
export function parseJson(text: string): unknown {
  if (!text.trim()) throw new ApiError(400, 'bad_request', 'A JSON body is required');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'bad_request', `Malformed JSON: ${(error as Error).message}`);
  }
}

/** The request body as a JSON object; anything else is `400 bad_request`. */
export function parseJsonObject(text: string): Record<string, unknown> {
  const value = parseJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(400, 'bad_request', 'The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
