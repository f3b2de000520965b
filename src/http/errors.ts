export type ErrorCode =
  | 'bad_request'
  | 'invalid_cursor'
  | 'unauthorized'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'scope_escalation_blocked'
  | 'tls_required'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'unmanaged_resource'
  | 'idempotency_key_conflict'
  | 'precondition_failed'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'locked'
  | 'too_many_requests'
  | 'internal_error'
  | 'reload_failed_restored'
  | 'reload_failed_unrecovered'
  | 'service_unavailable'
  | 'init_script_missing'
  | 'batch_partial_failure';

export type FieldErrorCode =
  | 'required'
  | 'invalid_type'
  | 'invalid_format'
  | 'out_of_range'
  | 'not_in_enum'
  | 'conflict'
  | 'read_only'
  | 'unknown_field';

/** Codes that appear only inside `invalid_sections` of `GET /diagnostics?validate=1`. */
export type SweepErrorCode = 'unreadable' | 'sweep_failed';

export interface FieldError {
  field: string;
  code: FieldErrorCode;
  message: string;
}

/** Extra envelope members (`errors`, `reload_error`, ...) and headers an error carries. */
export interface ErrorDetails {
  errors?: FieldError[];
  reload_error?: string;
  restore_error?: string;
  /** A batch's abort: the operation it failed at, that operation's own envelope, and whether all it did was undone. */
  aborted_at_index?: number;
  error?: Record<string, unknown>;
  reverted?: boolean;
  /** A write refused while a change awaits confirmation: that change, and when it is rolled back unless confirmed. */
  confirm_id?: string;
  expires_at?: string;
  headers?: Record<string, string>;
}

/** An answer in the spec's error envelope, thrown from anywhere in the pipeline. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}
