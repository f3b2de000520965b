import { ApiError, type FieldError } from './errors.js';

// Not in errors.ts, which every request loads: only what checks a body needs this.
/** `422 validation_failed` with the field errors; `subject` names what held them. */
export function validationFailed(errors: FieldError[], subject = 'The body'): ApiError {
  return new ApiError(422, 'validation_failed', `${subject} has ${errors.length} invalid field(s)`, { errors });
}
