// The prose of /openapi.json and /schema: the descriptions and summaries, which the package
// wrtapi-doc installs as one JSON file (build/generators/prose.ts writes it). Without it the
// document states no prose but the rules the definitions declare (their checks, `when`s,
// references and undeletable ids), which stay with the core.
import type { DocField, DocGroup, ResourceDoc } from '../resources/model.js';

export const PROSE_FILE = '/usr/share/wrtapi-doc/prose.json';

/** A resource's descriptions: its own, and its members' by name. */
export interface DocProse {
  description?: string;
  members: Record<string, string | { description?: string; fields: Record<string, string> }>;
}

/** The prose the code of src/openapi places, by where it goes; `%s` stands for the value it is given. */
export interface Text {
  sectionId: string;
  fixedIds: string;
  viewId: string;
  managed: string;
  runtime: string;
  presence: string;
  read: string;
  replace: string;
  update: string;
  list: string;
  create: string;
  delete: string;
  adopt: string;
  written: string;
  readOne: string;
  notModified: string;
  page: string;
  deleted: string;
  viewPage: string;
  viewItem: string;
  patchBodies: string;
  paged: string;
  viewOnly: string;
  keysPath: string;
  keysList: string;
  keysPage: string;
  keysAdd: string;
  keysWrite: string;
  keysHeld: string;
  keysRead: string;
  keysOne: string;
  keysReplace: string;
  keysSameKey: string;
  keysRemove: string;
  keysRemoved: string;
  keysWritten: string;
  keysTolerated: string;
  keysSchema: string;
  keyId: string;
  keyType: string;
  keyKey: string;
  keyComment: string;
  keyOptions: string;
  keyFingerprint: string;
  keyLine: string;
}

/** A text of the prose with `%s` made `value`, or undefined without wrtapi-doc. */
export type Say = (key: keyof Text, value?: string) => string | undefined;

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
