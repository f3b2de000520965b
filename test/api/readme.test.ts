import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from '../../shims/emu/project.js';

// The README's curl session, run as printed against `wrtapi-emu start`: only the base URL and the
// sandbox's path differ, since a test cannot count on port 8080 and ./.sandbox.
test('the README curl session runs as printed: paging, a dry run, an idempotent create, a 304, conditional and JSON Patch updates, a delete', async () => {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('```sh', readme.indexOf('### A session with curl'));
  const session = readme.slice(start + '```sh'.length, readme.indexOf('```', start + 5));
  const root = mkdtempSync(join(tmpdir(), 'wrtapi-readme-'));
  rmSync(root, { recursive: true });
  const server = spawn(process.execPath, [join(projectRoot, 'dist/node/shims/emu/cli.js'), 'start', '--root', root, '--port', '0', '--engine', process.env.WRTAPI_ENGINE ?? 'wasm'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let output = '';
    for await (const chunk of server.stdout!) {
      output += chunk;
      if (output.includes('Try: ')) break;
    }
    const base = /at (http:\/\/\S+)$/m.exec(output)![1];
    const script = session.replace('http://127.0.0.1:8080/api/v3', base).replace('.sandbox/', `${root}/`);
    const run = spawnSync('sh', ['-ec', script], { encoding: 'utf8' });
    assert.is(run.status, 0, run.stderr);
    assert.match(run.stdout, /\{"dry_run":true,"resource":\{"id":"allow_ssh",/);
    assert.match(run.stdout, /Idempotent-Replayed: true/i);
    assert.match(run.stdout, /^304$/m);
    assert.match(run.stdout, /"dest_port":\["22","2222"\]/);
    assert.match(run.stdout, /HTTP\/1\.1 204 No Content/);
    assert.not.match(readFileSync(join(root, 'etc/config/firewall'), 'utf8'), /allow_ssh/);
  } finally {
    server.kill();
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
