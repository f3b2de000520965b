import type { Ports } from '../platform/ports.js';
import { ApiError } from './errors.js';
import { decodeUtf8 } from './utf8.js';

/** The largest body read: a resource's JSON is a few KB, a batch of 50 some tens. */
const MAX_BODY_BYTES = 65536;

/** The request body as text: past MAX_BODY_BYTES, or not well-formed UTF-8, it is `400` unread or unused. */
export function readBody(ports: Ports): string {
  const length = Number(ports.env('CONTENT_LENGTH') ?? 0) || 0;
  if (length > MAX_BODY_BYTES) throw new ApiError(400, 'bad_request', `The body is larger than ${MAX_BODY_BYTES} bytes`);
  const text = decodeUtf8(ports.readBody(length));
  if (text === undefined) throw new ApiError(400, 'bad_request', 'The body is not well-formed UTF-8');
  return text;
}
