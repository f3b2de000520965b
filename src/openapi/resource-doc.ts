// A resource's doc made whole: the build lists a doc's members without their names, which the
// resource's mapping holds in the same order (GeneratedDoc in resources/model.ts), and without a
// field's `when`, which the mapping holds too; this puts them back.
import type { DocField, DocGroup, GeneratedDoc, GeneratedGroup, ResourceDoc, ResourceMapping, ResourceModule } from '../resources/model.js';

function wholeDoc(mapping: ResourceMapping, generated: GeneratedDoc): ResourceDoc {
  const listed = generated.members;
  if (!Array.isArray(listed)) return generated as ResourceDoc;
  const members: Record<string, DocField | DocGroup> = {};
  let i = 0;
  for (const name in mapping.members) {
    const mapped = mapping.members[name];
    const member = listed[i++];
    if (!('fields' in mapped)) {
      members[name] = mapped.when ? { ...(member as DocField), when: mapped.when } : (member as DocField);
      continue;
    }
    const fields: Record<string, DocField> = {};
    let j = 0;
    for (const inner in mapped.fields) fields[inner] = (member as GeneratedGroup).fields[j++];
    members[name] = { ...member, fields };
  }
  return { ...generated, members };
}

// Kept per module: its doc is JSON text parsed on each doc() call, and a batch checks a resource's
// creations and its patches against schemas of the same doc.
const made = new WeakMap<ResourceModule, ResourceDoc>();

/** The whole doc of a resource, from its mapping module. */
export function resourceDoc(module: ResourceModule): ResourceDoc {
  let doc = made.get(module);
  if (!doc) made.set(module, (doc = wholeDoc(module.mapping, module.doc())));
  return doc;
}
