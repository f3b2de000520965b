// The OpenAPI document as GET /openapi.json first assembles it, and wrtapi-doc's prose
// (openapi/prose.ts) that it and /schema put back when it is installed.
import { DOCUMENT_ID } from '../generated/document-id.js';
import type { FixedDocument } from '../openapi/document.js';
import type { DocProse, Say, Text } from '../openapi/prose.js';
import type { Ports } from '../platform/ports.js';
import type { DocField, DocGroup, ResourceDoc } from '../resources/model.js';

/** wrtapi-doc's prose, a file at a time: /schema reads one resource's, not the whole document's. */
export interface Prose {
  text: Text;
  /** By resource path. */
  doc(path: string): DocProse | undefined;
  /** The fixed part whole, its prose in place. */
  fixed(): FixedDocument;
}

const DIR = '/usr/share/wrtapi-doc';

/** wrtapi-doc's prose, when it is installed and of this build (another build's would misplace it). */
export function installedProse(ports: Ports): Prose | undefined {
  const read = (name: string) => {
    const text = ports.readFile(`${DIR}/${name}.json`);
    return text === undefined ? undefined : JSON.parse(text);
  };
  const head = read('text') as { id: string; text: Text } | undefined;
  return head?.id === DOCUMENT_ID ? { text: head.text, doc: (path) => read(`docs/${path}`), fixed: () => read('fixed') } : undefined;
}

export const sayer = (text?: Text): Say => (key, value) => (value === undefined ? text?.[key] : text?.[key].replace('%s', () => value));

/** The resource's doc with its descriptions put back. */
export function described(doc: ResourceDoc, prose?: DocProse): ResourceDoc {
  if (!prose) return doc;
  const members: Record<string, DocField | DocGroup> = {};
  for (const name in doc.members) {
    const member = doc.members[name];
    const text = prose.members[name];
    if (typeof text === 'string') members[name] = { ...member, description: text } as DocField;
    else if (text && 'fields' in member) {
      const fields: Record<string, DocField> = {};
      for (const inner in member.fields) fields[inner] = text.fields[inner] === undefined ? member.fields[inner] : { ...member.fields[inner], description: text.fields[inner] };
      members[name] = { ...member, ...(text.description === undefined ? {} : { description: text.description }), fields };
    } else members[name] = member;
  }
  return { ...doc, description: prose.description, members };
}

/** The document's text, from each resource's generated doc and the fixed part the build wrote, with the prose when installed. */
async function documentText(ports: Ports): Promise<string> {
  const [{ allResources }, { FIXED }, { pattern }, { openapiDocument }, { withPatterns }, { resourceDoc }] = await Promise.all([
    import('../engine/tables.js'),
    import('../generated/openapi-fixed.js'),
    import('../generated/patterns.js'),
    import('../openapi/document.js'),
    import('../openapi/members.js'),
    import('../openapi/resource-doc.js'),
  ]);
  const prose = installedProse(ports);
  const docs = await Promise.all(
    (await allResources()).map(async (entry) => {
      const doc = resourceDoc(await entry.module());
      return withPatterns(described(doc, prose?.doc(doc.path)), pattern);
    }),
  );
  // ASCII only (test/api/openapi.test.ts): one character past it would make QuickJS hold the whole
  // text at two bytes a character, on every later fetch of the copy too.
  return JSON.stringify(openapiDocument(docs, prose?.fixed() ?? FIXED, sayer(prose?.text)));
}

/**
 * The document, assembled, and kept at `kept` (in /tmp, named `<prefix><build's document id>.json`)
 * with its gzip at `<kept>.gz`. Copies another build kept are removed, and those a killed maker left.
 * gzip names its output after its input and writes it in place, so it compresses a copy of this
 * process's own, and both are renamed in: a reader finds each whole or not at all. Without gzip (or
 * when it fails) only the document is kept.
 */
export async function keepDocument(ports: Ports, prefix: string, kept: string): Promise<string> {
  const text = await documentText(ports);
  const making = `.${prefix}`;
  for (const name of ports.list('/tmp')) {
    const path = `/tmp/${name}`;
    if (name.startsWith(prefix) && path !== kept && path !== `${kept}.gz`) ports.remove(path);
    else if (name.startsWith(making) && !ports.isRunning(name.slice(making.length).split('.')[0])) ports.remove(path);
  }
  const own = `/tmp/${making}${ports.pid()}.json`;
  // A dead process of the same pid may have left one.
  ports.remove(own);
  ports.createExclusive(own, text);
  try {
    if (ports.run(['/bin/gzip', '-k', '-f', own]).code === 0) ports.rename(`${own}.gz`, `${kept}.gz`);
  } finally {
    ports.remove(`${own}.gz`);
  }
  ports.rename(own, kept);
  return text;
}
