// ETags and the conditional requests they serve. Collections carry none, so their reads never load this.
import { ApiError } from '../http/errors.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Ports } from '../platform/ports.js';
import type { JsonObject } from '../resources/model.js';

/**
 * 16 hex digits of the text's UTF-16 code units. An ETag guards against lost updates between
 * cooperating writers, not against forgery, and SHA-256 in QuickJS's interpreter cost more than the
 * rest of a read: two 32-bit multiply-xor lanes (cyrb53's) give 64 bits instead. wrtapi-bytecode's
 * `hash64` computes the same digits (its cross check holds them alike).
 */
export function hash64(text: string): string {
  let a = 0xdeadbeef;
  let b = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 2654435761);
    b = Math.imul(b ^ code, 1597334677);
  }
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`;
}

/** What checks a request's conditions: the request, and the ports that may hash natively. */
export interface Conditional {
  ports: Pick<Ports, 'hash64'>;
  request: Request;
}

/** A quoted hash of the body's JSON text alone, so sibling sections never change it. */
export function etagOf(ports: Pick<Ports, 'hash64'>, text: string): string {
  return `"${ports.hash64?.(text) ?? hash64(text)}"`;
}

/**
 * Whether an `If-Match`/`If-None-Match` value names the current ETag (`*` names any, and is all that
 * can name what carries none). If-Match compares strongly (RFC 9110 13.1.1): a weak tag never
 * matches, as our tags are strong.
 */
export function etagMatches(condition: string, etag: string | undefined, strong = false): boolean {
  return condition
    .split(',')
    .map((candidate) => candidate.trim())
    .some((candidate) => candidate === '*' || (etag !== undefined && (candidate === etag || (!strong && candidate === `W/${etag}`))));
}

export function conditionsOf(request: Request) {
  return {
    ifMatch: request.headerOrQuery('If-Match', 'if_match'),
    ifNoneMatch: request.headerOrQuery('If-None-Match', 'if_none_match'),
  };
}

/** A read's answer to an If-None-Match that names its ETag: 304, no body; undefined otherwise. */
export function notModified(request: Request, etag: string): Response | undefined {
  const { ifNoneMatch } = conditionsOf(request);
  return ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag) ? { status: 304, headers: { ETag: etag, 'Cache-Control': 'no-store' } } : undefined;
}

/**
 * If-Match must name the current ETag and If-None-Match must not; checked before any change.
 * `current` is the resource's body; `true` for one that exists but carries no ETag (raw passthrough,
 * the non-configuration resources: spec, ETag), which only `*` names; undefined for one being
 * created, which nothing names: any If-Match fails, as RFC 9110 has it.
 */
export function checkPreconditions({ ports, request }: Conditional, current: JsonObject | true | undefined): void {
  const { ifMatch, ifNoneMatch } = conditionsOf(request);
  if (current === undefined) {
    if (ifMatch !== undefined) throw new ApiError(412, 'precondition_failed', 'If-Match names an ETag, and a resource being created has none');
    return;
  }
  // Hashing a body costs about 2,000 instructions a character in QuickJS: only for a condition to check.
  if (ifMatch === undefined && ifNoneMatch === undefined) return;
  const etag = current === true ? undefined : etagOf(ports, JSON.stringify(current));
  const named = etag ?? `${request.path}, which carries no ETag`;
  if (ifMatch !== undefined && !etagMatches(ifMatch, etag, true)) throw new ApiError(412, 'precondition_failed', `If-Match does not match ${named}`);
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag)) throw new ApiError(412, 'precondition_failed', `If-None-Match matches ${named}`);
}
