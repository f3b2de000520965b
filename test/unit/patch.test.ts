import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyJsonPatch, JsonPatchError, type JsonPatchErrorKind } from '../../src/engine/patch.js';
import { applyMergePatch, jsonEqual } from '../../src/engine/json-values.js';

// Frozen inputs make any mutation by the code under test throw (modules run in strict mode).
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}

function parsed(json: string): unknown {
  return frozen(JSON.parse(json));
}

function patchFails(document: unknown, operations: unknown, kind: JsonPatchErrorKind, message: string): void {
  try {
    applyJsonPatch(frozen(document), frozen(operations));
  } catch (error) {
    assert.instance(error, JsonPatchError);
    assert.is((error as JsonPatchError).kind, kind);
    assert.is((error as JsonPatchError).message, message);
    return;
  }
  assert.unreachable(`expected a ${kind} error`);
}

const rfc6902Examples: { name: string; doc: string; patch: string; expected?: string; fails?: JsonPatchErrorKind }[] = [
  { name: 'A.1 adding an object member', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/baz","value":"qux"}]', expected: '{"baz":"qux","foo":"bar"}' },
  { name: 'A.2 adding an array element', doc: '{"foo":["bar","baz"]}', patch: '[{"op":"add","path":"/foo/1","value":"qux"}]', expected: '{"foo":["bar","qux","baz"]}' },
  { name: 'A.3 removing an object member', doc: '{"baz":"qux","foo":"bar"}', patch: '[{"op":"remove","path":"/baz"}]', expected: '{"foo":"bar"}' },
  { name: 'A.4 removing an array element', doc: '{"foo":["bar","qux","baz"]}', patch: '[{"op":"remove","path":"/foo/1"}]', expected: '{"foo":["bar","baz"]}' },
  { name: 'A.5 replacing a value', doc: '{"baz":"qux","foo":"bar"}', patch: '[{"op":"replace","path":"/baz","value":"boo"}]', expected: '{"baz":"boo","foo":"bar"}' },
  {
    name: 'A.6 moving a value',
    doc: '{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}',
    patch: '[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]',
    expected: '{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}',
  },
  { name: 'A.7 moving an array element', doc: '{"foo":["all","grass","cows","eat"]}', patch: '[{"op":"move","from":"/foo/1","path":"/foo/3"}]', expected: '{"foo":["all","cows","eat","grass"]}' },
  {
    name: 'A.8 testing a value: success',
    doc: '{"baz":"qux","foo":["a",2,"c"]}',
    patch: '[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]',
    expected: '{"baz":"qux","foo":["a",2,"c"]}',
  },
  { name: 'A.9 testing a value: error', doc: '{"baz":"qux"}', patch: '[{"op":"test","path":"/baz","value":"bar"}]', fails: 'test_failed' },
  { name: 'A.10 adding a nested member object', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/child","value":{"grandchild":{}}}]', expected: '{"foo":"bar","child":{"grandchild":{}}}' },
  { name: 'A.11 ignoring unrecognized elements', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/baz","value":"qux","xyz":123}]', expected: '{"foo":"bar","baz":"qux"}' },
  { name: 'A.12 adding to a nonexistent target', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/baz/bat","value":"qux"}]', fails: 'unresolvable' },
  { name: 'A.14 ~ escape ordering', doc: '{"/":9,"~1":10}', patch: '[{"op":"test","path":"/~01","value":10}]', expected: '{"/":9,"~1":10}' },
  { name: 'A.15 comparing strings and numbers', doc: '{"/":9,"~1":10}', patch: '[{"op":"test","path":"/~01","value":"10"}]', fails: 'test_failed' },
  { name: 'A.16 adding an array value', doc: '{"foo":["bar"]}', patch: '[{"op":"add","path":"/foo/-","value":["abc","def"]}]', expected: '{"foo":["bar",["abc","def"]]}' },
];

for (const example of rfc6902Examples) {
  test(`RFC 6902 ${example.name}`, () => {
    const run = () => applyJsonPatch(parsed(example.doc), parsed(example.patch));
    if (example.expected !== undefined) {
      assert.ok(jsonEqual(run(), JSON.parse(example.expected)));
    } else {
      assert.throws(run, (error: unknown) => error instanceof JsonPatchError && error.kind === example.fails);
    }
  });
}

test('the result shares nothing with the document or the patch', () => {
  const document = { a: { b: 1 } };
  const value = { c: [1] };
  const result = applyJsonPatch(document, [{ op: 'add', path: '/v', value }]) as any;
  result.a.b = 2;
  result.v.c.push(2);
  assert.equal(document, { a: { b: 1 } });
  assert.equal(value, { c: [1] });
});

test('a failing later operation leaves the input untouched', () => {
  const document = { a: 1, list: [1, 2] };
  patchFails(
    document,
    [
      { op: 'replace', path: '/a', value: 2 },
      { op: 'remove', path: '/list/0' },
      { op: 'replace', path: '/match/src_port', value: 22 },
    ],
    'unresolvable',
    'operation 2 (replace /match/src_port): path does not exist',
  );
  assert.equal(document, { a: 1, list: [1, 2] });
});

test('operations see the results of the earlier ones', () => {
  const result = applyJsonPatch({}, [
    { op: 'add', path: '/a', value: { b: [] } },
    { op: 'add', path: '/a/b/-', value: 1 },
    { op: 'add', path: '/a/b/0', value: 0 },
    { op: 'test', path: '/a', value: { b: [0, 1] } },
  ]);
  assert.equal(result, { a: { b: [0, 1] } });
});

test('pointer escapes: ~0 is ~ and ~1 is /', () => {
  const document = { 'a/b': 1, 'm~n': 2, '': 3, ' ': 4 };
  assert.equal(
    applyJsonPatch(document, [
      { op: 'replace', path: '/a~1b', value: 10 },
      { op: 'replace', path: '/m~0n', value: 20 },
      { op: 'replace', path: '/', value: 30 },
      { op: 'replace', path: '/ ', value: 40 },
    ]),
    { 'a/b': 10, 'm~n': 20, '': 30, ' ': 40 },
  );
});

test('the root pointer "" replaces the whole document', () => {
  assert.equal(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '', value: [1] }]), [1]);
  assert.equal(applyJsonPatch({ a: 1 }, [{ op: 'add', path: '', value: 'x' }]), 'x');
  assert.equal(applyJsonPatch({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '' }]), { b: 1 });
  assert.equal(applyJsonPatch({ a: 1 }, [{ op: 'test', path: '', value: { a: 1 } }]), { a: 1 });
  patchFails({ a: 1 }, [{ op: 'test', path: '', value: {} }], 'test_failed', 'operation 0 (test ""): value differs');
  patchFails({ a: 1 }, [{ op: 'remove', path: '' }], 'invalid', 'operation 0 (remove ""): cannot remove the whole document');
});

test('"-" appends on add and names no element for the other operations', () => {
  assert.equal(applyJsonPatch([1, 2], [{ op: 'add', path: '/-', value: 3 }]), [1, 2, 3]);
  assert.equal(applyJsonPatch({ '-': 1 }, [{ op: 'replace', path: '/-', value: 2 }]), { '-': 2 });
  patchFails([1], [{ op: 'replace', path: '/-', value: 2 }], 'unresolvable', 'operation 0 (replace /-): path does not exist');
  patchFails([1], [{ op: 'remove', path: '/-' }], 'unresolvable', 'operation 0 (remove /-): path does not exist');
  patchFails([1], [{ op: 'test', path: '/-', value: 1 }], 'unresolvable', 'operation 0 (test /-): path does not exist');
  patchFails([[1]], [{ op: 'add', path: '/-/0', value: 1 }], 'unresolvable', 'operation 0 (add /-/0): path does not exist');
});

test('array indexes: add up to the length, others within bounds, no leading zeros', () => {
  assert.equal(applyJsonPatch(['a'], [{ op: 'add', path: '/1', value: 'b' }]), ['a', 'b']);
  assert.equal(applyJsonPatch(['a'], [{ op: 'add', path: '/0', value: 'b' }]), ['b', 'a']);
  assert.equal(applyJsonPatch({ '01': 1 }, [{ op: 'replace', path: '/01', value: 2 }]), { '01': 2 });
  patchFails(['a'], [{ op: 'add', path: '/2', value: 'b' }], 'unresolvable', 'operation 0 (add /2): no position "2" in an array of length 1');
  patchFails(['a', 'b'], [{ op: 'add', path: '/01', value: 'c' }], 'unresolvable', 'operation 0 (add /01): no position "01" in an array of length 2');
  patchFails(['a'], [{ op: 'add', path: '/-1', value: 'b' }], 'unresolvable', 'operation 0 (add /-1): no position "-1" in an array of length 1');
  patchFails(['a'], [{ op: 'add', path: '/x', value: 'b' }], 'unresolvable', 'operation 0 (add /x): no position "x" in an array of length 1');
  patchFails(['a'], [{ op: 'replace', path: '/1', value: 'b' }], 'unresolvable', 'operation 0 (replace /1): path does not exist');
  patchFails(['a', 'b'], [{ op: 'remove', path: '/01' }], 'unresolvable', 'operation 0 (remove /01): path does not exist');
  patchFails(['a', 'b'], [{ op: 'test', path: '/1e0', value: 'b' }], 'unresolvable', 'operation 0 (test /1e0): path does not exist');
  patchFails(['a'], [{ op: 'remove', path: '/length' }], 'unresolvable', 'operation 0 (remove /length): path does not exist');
});

test('missing parents are not created and scalars have no members', () => {
  patchFails({ q: { bar: 2 } }, [{ op: 'add', path: '/a/b', value: 1 }], 'unresolvable', 'operation 0 (add /a/b): path does not exist');
  patchFails({ a: 'text' }, [{ op: 'add', path: '/a/b', value: 1 }], 'unresolvable', 'operation 0 (add /a/b): path does not exist');
  patchFails({ a: 1 }, [{ op: 'remove', path: '/b' }], 'unresolvable', 'operation 0 (remove /b): path does not exist');
});

test('add replaces an existing member; replace needs one', () => {
  assert.equal(applyJsonPatch({ a: null }, [{ op: 'add', path: '/a', value: 1 }]), { a: 1 });
  patchFails({}, [{ op: 'replace', path: '/a', value: 1 }], 'unresolvable', 'operation 0 (replace /a): path does not exist');
});

test('move: to the same place, within an array, and never into its own child', () => {
  assert.equal(applyJsonPatch({ a: 1 }, [{ op: 'move', from: '/a', path: '/a' }]), { a: 1 });
  assert.equal(applyJsonPatch({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/ab' }]), { ab: { b: 1 } });
  assert.equal(applyJsonPatch({ baz: [{ qux: 'hello' }] }, [{ op: 'move', from: '/baz/0/qux', path: '/baz/1' }]), { baz: [{}, 'hello'] });
  patchFails({ a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }], 'invalid', 'operation 0 (move /a/b/c): cannot move /a into itself');
  patchFails({ a: 1 }, [{ op: 'move', from: '', path: '/b' }], 'invalid', 'operation 0 (move /b): cannot move "" into itself');
  patchFails({ a: 1 }, [{ op: 'move', from: '/x', path: '/b' }], 'unresolvable', 'operation 0 (move /b from /x): "from" does not exist');
  patchFails({ a: 1 }, [{ op: 'move', from: '/a', path: '/x/y' }], 'unresolvable', 'operation 0 (move /x/y from /a): path does not exist');
});

test('copy makes a deep copy', () => {
  const result = applyJsonPatch({ a: { list: [1] } }, [
    { op: 'copy', from: '/a', path: '/b' },
    { op: 'add', path: '/b/list/-', value: 2 },
    { op: 'copy', from: '/a/list/0', path: '/a/list/0' },
  ]);
  assert.equal(result, { a: { list: [1, 1] }, b: { list: [1, 2] } });
  patchFails({}, [{ op: 'copy', from: '/x', path: '/y' }], 'unresolvable', 'operation 0 (copy /y from /x): "from" does not exist');
});

test('test compares JSON values: key order ignored, array order kept, types strict', () => {
  const document = { o: { a: 1, b: [1, { c: null }] }, n: 1 };
  assert.equal(applyJsonPatch(document, [{ op: 'test', path: '/o', value: { b: [1, { c: null }], a: 1.0 } }]), document);
  assert.equal(applyJsonPatch(document, [{ op: 'test', path: '/n', value: 1e0 }]), document);
  patchFails(document, [{ op: 'test', path: '/o/b', value: [{ c: null }, 1] }], 'test_failed', 'operation 0 (test /o/b): value differs');
  patchFails(document, [{ op: 'test', path: '/o', value: { a: 1 } }], 'test_failed', 'operation 0 (test /o): value differs');
  patchFails(document, [{ op: 'test', path: '/o/b/1/c', value: false }], 'test_failed', 'operation 0 (test /o/b/1/c): value differs');
  patchFails(document, [{ op: 'test', path: '/missing', value: 1 }], 'unresolvable', 'operation 0 (test /missing): path does not exist');
});

test('a malformed patch is invalid whatever the document', () => {
  patchFails({}, { op: 'add' }, 'invalid', 'a JSON Patch must be an array of operations');
  patchFails({}, ['add'], 'invalid', 'operation 0: must be an object');
  patchFails({}, [null], 'invalid', 'operation 0: must be an object');
  const opMessage = 'operation 0: "op" must be one of add, remove, replace, move, copy, test';
  patchFails({}, [{ op: 'merge', path: '/a' }], 'invalid', opMessage);
  patchFails({}, [{ path: '/a' }], 'invalid', opMessage);
  patchFails({}, [{ op: 'remove' }], 'invalid', 'operation 0 (remove): "path" must be a string');
  patchFails({}, [{ op: 'remove', path: 1 }], 'invalid', 'operation 0 (remove): "path" must be a string');
  patchFails({}, [{ op: 'add', path: 'a', value: 1 }], 'invalid', 'operation 0 (add a): "path" is not a valid JSON Pointer');
  patchFails({}, [{ op: 'add', path: '/a~2', value: 1 }], 'invalid', 'operation 0 (add /a~2): "path" is not a valid JSON Pointer');
  patchFails({}, [{ op: 'add', path: '/a~', value: 1 }], 'invalid', 'operation 0 (add /a~): "path" is not a valid JSON Pointer');
  patchFails({}, [{ op: 'add', path: '/a' }], 'invalid', 'operation 0 (add /a): "value" is missing');
  patchFails({}, [{ op: 'replace', path: '/a' }], 'invalid', 'operation 0 (replace /a): "value" is missing');
  patchFails({}, [{ op: 'test', path: '/a' }], 'invalid', 'operation 0 (test /a): "value" is missing');
  patchFails({}, [{ op: 'copy', path: '/a' }], 'invalid', 'operation 0 (copy /a): "from" must be a string');
  patchFails({}, [{ op: 'move', path: '/a', from: 'b' }], 'invalid', 'operation 0 (move /a): "from" is not a valid JSON Pointer');
  // The malformed operation wins over an earlier one that would fail on the document.
  patchFails({}, [{ op: 'test', path: '/a', value: 1 }, { op: 'jump', path: '/a' }], 'invalid', 'operation 1: "op" must be one of add, remove, replace, move, copy, test');
});

test('null is a value, and an empty patch returns a copy', () => {
  assert.equal(applyJsonPatch({}, [{ op: 'add', path: '/a', value: null }]), { a: null });
  const document = { a: [1] };
  const result = applyJsonPatch(document, []);
  assert.equal(result, document);
  assert.is.not(result, document);
});

test('JSON Patch treats __proto__ and inherited names as plain keys', () => {
  const added = applyJsonPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as object;
  assert.is(Object.getPrototypeOf(added), Object.prototype);
  assert.ok(Object.prototype.hasOwnProperty.call(added, '__proto__'));
  assert.equal(JSON.parse(JSON.stringify(added)), JSON.parse('{"__proto__":{"polluted":true}}'));
  patchFails({}, [{ op: 'add', path: '/__proto__/polluted', value: true }], 'unresolvable', 'operation 0 (add /__proto__/polluted): path does not exist');
  patchFails({}, [{ op: 'add', path: '/constructor/prototype/polluted', value: true }], 'unresolvable', 'operation 0 (add /constructor/prototype/polluted): path does not exist');
  patchFails({}, [{ op: 'test', path: '/toString', value: {} }], 'unresolvable', 'operation 0 (test /toString): path does not exist');
  const document = JSON.parse('{"__proto__":{"x":1}}');
  const replaced = applyJsonPatch(document, [{ op: 'replace', path: '/__proto__/x', value: 2 }]);
  assert.is(JSON.stringify(replaced), '{"__proto__":{"x":2}}');
  assert.is(JSON.stringify(applyJsonPatch(document, JSON.parse('[{"op":"add","path":"/a","value":{"__proto__":1}}]'))), '{"__proto__":{"x":1},"a":{"__proto__":1}}');
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

const rfc7396Examples: [string, string, string][] = [
  ['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
  ['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
  ['{"a":"b"}', '{"a":null}', '{}'],
  ['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
  ['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
  ['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
  ['{"a":{"b":"c"}}', '{"a":{"b":"d","c":null}}', '{"a":{"b":"d"}}'],
  ['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
  ['["a","b"]', '["c","d"]', '["c","d"]'],
  ['{"a":"b"}', '["c"]', '["c"]'],
  ['{"a":"foo"}', 'null', 'null'],
  ['{"a":"foo"}', '"bar"', '"bar"'],
  ['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
  ['[1,2]', '{"a":"b","c":null}', '{"a":"b"}'],
  ['{}', '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}'],
];

for (const [target, patch, expected] of rfc7396Examples) {
  test(`RFC 7396 ${target} + ${patch}`, () => {
    assert.equal(applyMergePatch(parsed(target), parsed(patch)), JSON.parse(expected));
  });
}

test('merge patch shares nothing with its inputs', () => {
  const target = { keep: { list: [1] }, change: { a: 1 } };
  const patch = { change: { b: { c: 2 } }, added: [{ d: 3 }] };
  const result = applyMergePatch(target, patch) as any;
  assert.equal(result, { keep: { list: [1] }, change: { a: 1, b: { c: 2 } }, added: [{ d: 3 }] });
  result.keep.list.push(2);
  result.change.b.c = 3;
  result.added[0].d = 4;
  assert.equal(target, { keep: { list: [1] }, change: { a: 1 } });
  assert.equal(patch, { change: { b: { c: 2 } }, added: [{ d: 3 }] });
});

test('merge patch: deleting an absent member is a no-op, key order is kept', () => {
  assert.is(JSON.stringify(applyMergePatch({ a: 1, b: 2 }, { x: null, a: 3 })), '{"a":3,"b":2}');
});

test('merge patch treats __proto__ as a plain key', () => {
  const result = applyMergePatch({}, JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}')) as object;
  assert.is(Object.getPrototypeOf(result), Object.prototype);
  assert.is(JSON.stringify(result), '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}');
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  const removed = applyMergePatch(JSON.parse('{"__proto__":{"a":1},"b":2}'), JSON.parse('{"__proto__":null}'));
  assert.is(JSON.stringify(removed), '{"b":2}');
});

test('jsonEqual', () => {
  assert.ok(jsonEqual({ a: [1, { b: 'x' }], c: null }, { c: null, a: [1, { b: 'x' }] }));
  assert.ok(jsonEqual(1, 1.0));
  assert.not.ok(jsonEqual(1, '1'));
  assert.not.ok(jsonEqual([1, 2], [2, 1]));
  assert.not.ok(jsonEqual([], {}));
  assert.not.ok(jsonEqual({}, []));
  assert.not.ok(jsonEqual({ a: 1 }, { a: 1, b: 2 }));
  assert.not.ok(jsonEqual({ a: undefined }, { b: undefined }));
  assert.not.ok(jsonEqual(null, {}));
  assert.not.ok(jsonEqual({}, JSON.parse('{"__proto__":{}}')));
  assert.not.ok(jsonEqual({ toString: 1 }, { valueOf: 1 }));
});

test.run();
