import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// ARCHITECTURE.md's code map is the rule: each row names a folder and the folders its files may
// import. This reads the table and holds the tree to it, so the page stays true as code moves.
const root = fileURLToPath(new URL('../../../../', import.meta.url));

interface Row {
  folder: string;
  /** Path prefixes a file of the folder may import besides its own folder; undefined: anything. */
  allowed?: string[];
}

function codeMap(): Row[] {
  const page = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
  const section = page.slice(page.indexOf('## Code map'), page.indexOf('## Invariants'));
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const folder = /^`([^`]+\/)`$/.exec(cells[1] ?? '')?.[1];
    if (!folder) continue;
    const mayImport = cells[3];
    if (mayImport === 'anything') {
      rows.push({ folder });
      continue;
    }
    const names = [...mayImport.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    // A bare name is a folder of src/; anything with a slash is a path from the repository root.
    rows.push({ folder, allowed: names.map((name) => (name.includes('/') ? name : `src/${name}/`)) });
  }
  return rows;
}

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) return name === 'seed' ? [] : sources(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module a file names in an import, an export-from or an `import()`, as TypeScript scans it. */
function importsOf(path: string): string[] {
  return ts.preProcessFile(readFileSync(join(root, path), 'utf8'), true, true).importedFiles.map((file) => file.fileName);
}

const rowOf = (rows: Row[], path: string) =>
  rows.filter((row) => path.startsWith(row.folder)).sort((a, b) => b.folder.length - a.folder.length)[0];

const resolved = (from: string, specifier: string) => relative(root, normalize(join(root, dirname(from), specifier))).replace(/\.js$/, '.ts');

test('every folder of src/ has a row of the code map, and every row names a folder that exists', () => {
  const rows = codeMap();
  const folders = new Set(rows.map((row) => row.folder));
  for (const name of readdirSync(join(root, 'src'))) {
    if (statSync(join(root, 'src', name)).isDirectory()) assert.ok(folders.has(`src/${name}/`), `src/${name}/ is not in ARCHITECTURE.md`);
  }
  for (const folder of folders) assert.ok(statSync(join(root, folder)).isDirectory(), `${folder} does not exist`);
});

test('every file imports only what its folder may import', () => {
  const rows = codeMap();
  const breaches: string[] = [];
  for (const top of ['src', 'shims', 'build']) {
    for (const path of sources(top)) {
      const row = rowOf(rows, path);
      assert.ok(row, `${path} belongs to no row of the code map`);
      if (!row.allowed) continue;
      for (const specifier of importsOf(path).filter((name) => name.startsWith('.'))) {
        const target = resolved(path, specifier);
        if (rowOf(rows, target) === row || row.allowed.some((prefix) => target.startsWith(prefix))) continue;
        breaches.push(`${path} imports ${target}`);
      }
    }
  }
  assert.equal(breaches, []);
});

test('src/ reaches the machine only through the ports: no QuickJS or Node module, no shim', () => {
  const breaches = sources('src').flatMap((path) =>
    importsOf(path)
      .filter((name) => name === 'std' || name === 'os' || name.startsWith('node:') || resolved(path, name).startsWith('shims/'))
      .map((name) => `${path} imports ${name}`),
  );
  assert.equal(breaches, []);
});

test('the code map is read: src/resources may not import the engine or the platform', () => {
  const resources = codeMap().find((row) => row.folder === 'src/resources/')!;
  assert.equal(resources.allowed, ['src/http/', 'src/uci/']);
});

test.run();
