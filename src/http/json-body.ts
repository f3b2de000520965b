import { ApiError } from './errors.js';

/** The deepest nesting of objects and arrays a body may have; a resource needs three. */
const MAX_JSON_DEPTH = 32;

/** Whether the JSON text nests deeper than MAX_JSON_DEPTH: checked before parsing, so no recursion over it can overflow. */
function tooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92) i++;
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 || code === 91) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (code === 125 || code === 93) depth--;
  }
  return false;
}

/** A JSON request body; malformed JSON, or JSON nested too deep, is `400 bad_request`. */
export function parseJson(text: string): unknown {
  if (!text.trim()) throw new ApiError(400, 'bad_request', 'A JSON body is required');
  if (tooDeep(text)) throw new ApiError(400, 'bad_request', `The JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
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
