// The prose of /openapi.json and /schema: the descriptions and summaries, which the package
// wrtapi-doc installs as JSON files (build/generators/prose.ts writes them, handlers/document.ts
// reads them). Without it the document states no prose but the rules the definitions declare (their
// checks, `when`s, references and undeletable ids), which stay with the core.

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
