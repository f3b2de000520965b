import { DOCUMENT_ID } from '../generated/document-id.js';
import type { Prose } from '../openapi/document.js';
import { PROSE_FILE } from '../openapi/prose.js';
import type { Ports } from '../platform/ports.js';

/** wrtapi-doc's prose, when it is installed and of this build (another build's would misplace it). */
export function installedProse(ports: Ports): Prose | undefined {
  const text = ports.readFile(PROSE_FILE);
  const prose = text === undefined ? undefined : (JSON.parse(text) as Prose);
  return prose?.id === DOCUMENT_ID ? prose : undefined;
}
