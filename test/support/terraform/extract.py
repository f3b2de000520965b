#!/usr/bin/env python3
"""Writes provider.ts: the attributes of uapi's Terraform provider, as its generated resources send
and decode them, with the migration guide's 3.0 changes and the spec's overrides applied.

Facts only, taken from the provider's Go source. Run it against a checkout of
openwrt-iac/terraform-provider-uapi (the replay test reads the file it writes, not the provider):
    python3 test/support/terraform/extract.py <provider checkout> > test/support/terraform/provider.ts
"""
import json, re, subprocess, sys

REPO = sys.argv[1]
COMMIT = subprocess.run(['git', '-C', REPO, 'rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip()

def show(path):
    return subprocess.run(['git', '-C', REPO, 'show', f'HEAD:{path}'], capture_output=True, text=True, check=True).stdout

def files():
    out = subprocess.run(['git', '-C', REPO, 'ls-tree', '--name-only', 'HEAD', 'internal/provider/'], capture_output=True, text=True).stdout
    return sorted(line for line in out.split() if line.endswith('_resource.go'))

def block(text, start):
    """The text from `start` to its matching closing brace."""
    depth, i = 0, text.index('{', start)
    for j in range(i, len(text)):
        depth += {'{': 1, '}': -1}.get(text[j], 0)
        if depth == 0:
            return text[start:j + 1]
    raise ValueError('unbalanced')

def attributes(schema_text):
    """name -> use, for one Attributes map (nested ones are parsed on their own)."""
    result, nested = {}, {}
    for match in re.finditer(r'"([a-z0-9_]+)":\s*', schema_text):
        name, rest = match.group(1), schema_text[match.end():]
        head = rest.split('\n', 1)[0]
        if head.startswith('schema.SingleNestedAttribute{'):
            body = block(schema_text, match.end())
            inner = block(body, body.index('Attributes:'))
            nested[name] = (re.search(r'Required:\s*true', body.split('Attributes:')[0]) is not None, attributes(inner)[0])
            continue
        expr = block(schema_text, match.end()) if head.rstrip().endswith('{') or (head.startswith('schema.') and '{' in head and not head.rstrip().endswith('},')) else head
        if head.startswith('optionalString('):
            use = 'clear'
        elif head.startswith('optionalComputed') or head.startswith('optionalComputedIDAttribute'):
            use = 'optional'
        elif head.startswith(('managedAttribute', 'etagAttribute', 'computedIDAttribute')):
            use = 'computed'
        elif re.search(r'Required:\s*true', expr):
            use = 'required'
        elif re.search(r'Sensitive:\s*true', expr):
            use = 'secret'
        elif re.search(r'Computed:\s*true', expr):
            use = 'optional' if 'Optional' in expr else 'computed'
        else:
            use = 'clear'
        result[name] = use
    return result, nested

TYPES = {'strVal': 'string', 'boolVal': 'boolean', 'boolValDefault': 'boolean', 'int64Val': 'integer', 'listVal': 'list'}

def resource(path):
    text = show(path)
    if 'func (r *' not in text or ') body(' not in text:
        return None
    name = 'uapi_' + re.search(r'TypeName = req.ProviderTypeName \+ "_([a-z0-9_]+)"', text).group(1)
    collection = re.search(r'Collection = "([^"]+)"', text)
    singleton = re.search(r'Path = "/([^"]+)"', text)
    schema_start = text.index('Attributes: map[string]schema.Attribute{')
    top = block(text, schema_start)
    # nested attribute maps are parsed separately; strip them from the top-level text
    flat, nested = attributes(top)
    body = block(text, text.index(') body('))
    read = block(text, text.index(') read('))
    create_only = set()
    create_block = re.search(r'if create \{([^}]*)\}', body)
    if create_block:
        create_only = set(re.findall(r'"([a-z0-9_]+)"', create_block.group(1)))
    decoded = {}
    for helper, where, key in re.findall(r'(strVal|boolValDefault|boolVal|int64Val|listVal)\((?:ctx, )?(obj|nested), "([a-z0-9_]+)"\)', read):
        decoded[(where, key)] = TYPES[helper]
    attrs = {}
    top_names = re.findall(r'\n\t\t\t"([a-z0-9_]+)":', top)
    for key in top_names:
        if key == 'etag':
            continue
        if key in nested:
            required, inner = nested[key]
            attrs[key] = {'type': 'object', 'use': 'required' if required else 'optional',
                          'attributes': {k: {'type': decoded.get(('nested', k), 'string'), 'use': u} for k, u in inner.items()}}
            continue
        use = flat.get(key, 'optional')
        entry = {'type': decoded.get(('obj', key)) or ('string' if use == 'secret' else 'unknown'), 'use': use}
        if key in create_only and key != 'id':
            entry['createOnly'] = True
        attrs[key] = entry
    return {'resource': name, 'path': (collection or singleton).group(1), 'kind': 'collection' if collection else 'singleton', 'attributes': attrs}

def main():
    resources = [r for r in (resource(p) for p in files()) if r]
    print('// Written by test/support/terraform/extract.py from openwrt-iac/terraform-provider-uapi at')
    print(f'// {COMMIT}: each generated resource\'s attributes, what its body() sends and its read() decodes.')
    print('// `use`: required, optional (optional+computed: sent whenever known), clear (optional, cleared when')
    print('// omitted), secret (write-only), computed (read only). provider3() applies the 3.0 changes.')
    print("import type { ProviderResource } from './provider3.js';\n")
    print('export const provider2: ProviderResource[] = ' + json.dumps(resources, indent=1) + ';')

main()
