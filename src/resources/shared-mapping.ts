// The form the build writes a mapping in when it repeats codecs and whens (build/generators/mappings.ts).
import type { Codec, MappedField, MappedGroup, ResourceMapping, When } from './model.js';

/**
 * A mapping as the build writes it: each member's codec and `when` are indexes into `shared`, which
 * holds each distinct one once, so JSON.parse builds it once rather than for every member that
 * repeats it (network/interfaces' text is 7.1 KB, or 4 KB so: its read 0.46M instructions less).
 */
export interface SharedMapping extends Omit<ResourceMapping, 'members'> {
  shared: (Codec | When)[];
  members: Record<string, SharedMember>;
}

type Indexed<T> = Omit<T, 'codec' | 'when'> & { codec: number; when?: number };
type SharedMember = Indexed<MappedField> | (Omit<MappedGroup, 'fields' | 'when'> & { fields: Record<string, Indexed<MappedField>>; when?: number });

/** The mapping a SharedMapping stands for, made in place: a read runs this for every member. */
export function unshared(written: SharedMapping): ResourceMapping {
  const { shared } = written;
  const resolve = (member: { codec?: unknown; when?: unknown }) => {
    if (member.codec !== undefined) member.codec = shared[member.codec as number];
    if (member.when !== undefined) member.when = shared[member.when as number];
  };
  for (const name in written.members) {
    const member = written.members[name];
    resolve(member);
    if ('fields' in member) for (const inner in member.fields) resolve(member.fields[inner]);
  }
  delete (written as Partial<SharedMapping>).shared;
  return written as unknown as ResourceMapping;
}
