import { acquireLocks } from '../config/locks.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { validationFailed } from '../http/validation-failed.js';
import { plainResponse } from '../http/response.js';
import { utf8Bytes } from '../auth/hash.js';
import type { Context } from './context.js';

// busybox passwd reads a line of at most 4095 bytes (bb_ask_noecho): a longer password would spill
// into the retype line and fail with "Passwords don't match".
const MAX_PASSWORD_BYTES = 4094;

/** The names /etc/passwd holds, the users passwd can set a password for. */
function users(text: string | undefined): string[] {
  return (text ?? '').split('\n').map((line) => line.split(':')[0]).filter(Boolean);
}

function fieldErrors(body: Record<string, unknown>, known: string[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const name of Object.keys(body)) {
    if (name !== 'user' && name !== 'password') errors.push({ field: name, code: 'unknown_field', message: `${name} is not a known field` });
  }
  const { user, password } = body;
  if (user === undefined || user === null) errors.push({ field: 'user', code: 'required', message: 'user is required' });
  else if (typeof user !== 'string') errors.push({ field: 'user', code: 'invalid_type', message: 'user must be string' });
  else if (!known.includes(user)) errors.push({ field: 'user', code: 'not_in_enum', message: `no user ${JSON.stringify(user)} in /etc/passwd` });
  // The messages describe the password, never repeat it.
  if (password === undefined || password === null) errors.push({ field: 'password', code: 'required', message: 'password is required' });
  else if (typeof password !== 'string') errors.push({ field: 'password', code: 'invalid_type', message: 'password must be string' });
  else if (/[\0\r\n\ud800-\udfff]/u.test(password)) {
    errors.push({ field: 'password', code: 'invalid_format', message: 'password must not hold NUL, CR or LF, where passwd ends the line, nor an unpaired surrogate, which has no UTF-8' });
  }
  else if (utf8Bytes(password).length > MAX_PASSWORD_BYTES) errors.push({ field: 'password', code: 'out_of_range', message: `password must be at most ${MAX_PASSWORD_BYTES} bytes` });
  return errors;
}

/**
 * `POST /system/password`: sets a user's password with the router's passwd, the password given
 * twice on its stdin, never in an argv, a file or a log line. A non-configuration write: it takes
 * the global lock exclusively, answers 204, and carries no reload header.
 */
export async function POST({ ports, request }: Context) {
  const { bodyObject } = await import('../http/json-body.js');
  const body = await bodyObject(request);
  const errors = fieldErrors(body, users(ports.readFile('/etc/passwd')));
  if (errors.length) throw validationFailed(errors, 'system/password: the body');
  const user = body.user as string;
  const password = body.password as string;
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    const { code, stdout, stderr } = ports.run(['/bin/passwd', user], `${password}\n${password}\n`);
    if (code !== 0) {
      // passwd's own complaint, with the password cut out should a tool ever echo it.
      const said = (stderr.trim() || stdout.trim()).split('\n').pop() ?? '';
      const safe = password ? said.split(password).join('***') : said;
      throw new ApiError(500, 'internal_error', `passwd ${user} exited ${code}${safe ? `: ${safe}` : ''}; the password is unchanged`);
    }
  } finally {
    held.release();
  }
  return plainResponse(204, undefined);
}
