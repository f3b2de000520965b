import { DOCUMENT_ID } from '../generated/document-id.js';
import type { Context } from './context.js';

const KEPT_PREFIX = 'wrtapi-openapi.';
const KEPT = `/tmp/${KEPT_PREFIX}${DOCUMENT_ID}.json`;

/**
 * `GET /openapi.json`: the document (handlers/document.ts). Assembling it costs a router as much as
 * dozens of reads, so the first fetch keeps it in /tmp (RAM, never flash), named for the docs it
 * came from, and later fetches answer that copy without loading the assembly (handlers/document.ts
 * keepDocument); wrtapi-doc's hooks remove the copy when its prose comes or goes. Hand-built: no
 * security headers.
 *
 * A client that accepts gzip gets the copy busybox's gzip made of it: 39 KB instead of 788 KB (79 KB
 * instead of 1,036 KB with wrtapi-doc) for uhttpd to send, each byte encrypted by the router's CPU,
 * most often in software.
 */
export async function GET({ ports, request }: Context) {
  const packed = acceptsGzip(request.header('Accept-Encoding')) ? ports.readFileBytes(`${KEPT}.gz`) : undefined;
  const kept = packed ?? ports.readFileBytes(KEPT);
  if (kept !== undefined) return { status: 200, headers: documentHeaders(packed), bytes: kept };
  return { status: 200, headers: documentHeaders(), body: await (await import('./document.js')).keepDocument(ports, KEPT_PREFIX, KEPT) };
}

const documentHeaders = (packed?: Uint8Array): Record<string, string> => ({
  'Content-Type': 'application/json',
  ...(packed && { 'Content-Encoding': 'gzip' }),
  Vary: 'Accept-Encoding',
});

/** Whether an Accept-Encoding admits gzip (RFC 9110 12.5.3): named, as x-gzip or through `*`, with a q above 0. */
export function acceptsGzip(header = ''): boolean {
  let gzip: number | undefined;
  let any = 0;
  for (const entry of header.toLowerCase().split(',')) {
    const [, coding, q] = /^\s*([^;\s]*)\s*(?:;\s*q\s*=\s*([^;\s]*))?/.exec(entry)!;
    const weight = q === undefined ? 1 : Number(q);
    if (coding === 'gzip' || coding === 'x-gzip') gzip = weight;
    else if (coding === '*') any = weight;
  }
  return (gzip ?? any) > 0;
}
