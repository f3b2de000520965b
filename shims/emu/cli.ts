#!/usr/bin/env node
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { engines, exitCode, installBytecodeModule, runCgi, runProgram, startProgram, tokenProgram, type Engine } from './engines.js';
import { initSandbox, installDoc, type PackageManager } from './sandbox.js';
import { reboot } from './power.js';
import { bundleDir } from './project.js';
import { baseUrl, serve } from './server.js';
import { cgiVariables } from './uhttpd.js';

const usage = `Usage: wrtapi-emu <command> [options]
  init  --root DIR [--force] [--package-manager opkg|apk] [--bytecode] [--doc]
                                             create an emulated router in DIR: OpenWrt 24.10 with
                                             opkg (the default), or 25.12 with apk; --bytecode
                                             installs wrtapi-bytecode (used by the native engine),
                                             --doc wrtapi-doc (the document's descriptions)
  serve --root DIR --port N [--host ADDR] [--engine wasm|native]
                                             serve DIR's /api/v3 over HTTP like uhttpd
  cgi   --root DIR [--engine wasm|native]    run one CGI request from the environment and stdin
  token --root DIR [--engine wasm|native] ARGS...
                                             run the token CLI against DIR
  qjs   --root DIR [--engine wasm|native] -m MODULE ARGS...
                                             run a module as DIR's /usr/bin/qjs does (wrtapi's own
                                             modules by their router path, /usr/share/wrtapi/...)
  reboot --root DIR [--engine wasm|native]   restart DIR: its processes killed, RAM cleared, the boot
                                             of its init scripts run (wrtapi's rolls back a change
                                             that awaited confirmation)
  start [--engine wasm|native] [--root DIR] [--port N] [--package-manager opkg|apk] [--bytecode] [--doc]
                                             serve DIR (./.sandbox by default, created when missing) on
                                             127.0.0.1:N (8080), and print an admin token and a curl line`;

const commandOptions = {
  root: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  engine: { type: 'string' },
  force: { type: 'boolean' },
  'package-manager': { type: 'string' },
  bytecode: { type: 'boolean' },
  doc: { type: 'boolean' },
} as const;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'token') return token(rest);
  if (command === 'qjs') return qjs(rest);
  const { values } = parseArgs({ args: rest, options: commandOptions });
  const engine = engineOption(values.engine);
  const packageManager = packageManagerOption(values['package-manager']);
  switch (command) {
    case 'init': {
      const root = required(values.root, '--root');
      initSandbox(root, { force: values.force, packageManager });
      if (values.bytecode) await installBytecodeModule(root);
      if (values.doc) installDoc(root);
      return 0;
    }
    case 'serve': {
      const server = await serve({ root: required(values.root, '--root'), engine, port: Number(required(values.port, '--port')), host: values.host });
      console.log(baseUrl(server));
      return new Promise(() => {});
    }
    case 'cgi':
      return cgi(required(values.root, '--root'), engine);
    case 'reboot':
      await reboot(required(values.root, '--root'), engine);
      return 0;
    case 'start':
      return start(engine, values.root ?? '.sandbox', Number(values.port ?? 8080), packageManager, values.bytecode ?? false, values.doc ?? false);
    default:
      console.error(usage);
      return 2;
  }
}

async function cgi(root: string, engine: Engine): Promise<number> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => cgiVariables.includes(name) || name.startsWith('HTTP_')),
  ) as Record<string, string>;
  const chunks: Uint8Array[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Uint8Array);
  const answer = await runCgi({ root, engine, env, body: Buffer.concat(chunks) });
  await new Promise<void>((written) => process.stdout.write(answer, () => written()));
  return 0;
}

/** `--root DIR [--engine E]` before the arguments that belong to the program. */
function sandboxOptions(argv: string[]): { root: string; engine: Engine; args: string[] } {
  let root: string | undefined;
  let engine: string | undefined;
  while (argv[0] === '--root' || argv[0] === '--engine') {
    const [option, value] = argv.splice(0, 2);
    if (option === '--root') root = value;
    else engine = value;
  }
  return { root: required(root, '--root'), engine: engineOption(engine), args: argv };
}

/** `token --root DIR [--engine E] ARGS...`: everything after the sandbox options belongs to the token CLI. */
async function token(argv: string[]): Promise<number> {
  const { root, engine, args } = sandboxOptions(argv);
  return exitCode(await startProgram({ root, engine, program: tokenProgram, args, stdio: 'inherit' }));
}

/**
 * `qjs --root DIR [--engine E] [-m] MODULE ARGS...`: a module the router would run, found by its path
 * in the sandbox, or, for wrtapi's own where no package put them, in the build's bundle.
 */
async function qjs(argv: string[]): Promise<number> {
  const { root, engine, args } = sandboxOptions(argv);
  if (args[0] === '-m') args.shift();
  const [module, ...programArgs] = args;
  required(module, 'MODULE');
  const inSandbox = module.startsWith(resolve(root)) ? module : join(root, module);
  const bundled = module.startsWith(BUNDLE_PATH) ? join(bundleDir, module.slice(BUNDLE_PATH.length)) : undefined;
  const program = existsSync(inSandbox) || !bundled ? inSandbox : bundled;
  return exitCode(await startProgram({ root, engine, program, args: programArgs, stdio: 'inherit' }));
}

/** Where the package installs the bundle on a router. */
const BUNDLE_PATH = '/usr/share/wrtapi/';

/**
 * `start`: serves the sandbox (created when missing) and prints what a newcomer needs to call it:
 * the base URL, an admin bearer minted at the first start and kept in the sandbox (never on a
 * router), and a curl line that works as printed.
 */
async function start(engine: Engine, root: string, port: number, packageManager: PackageManager, bytecode: boolean, doc: boolean): Promise<never> {
  if (!existsSync(root)) initSandbox(root, { packageManager });
  if (bytecode) await installBytecodeModule(root);
  if (doc) installDoc(root);
  const tokenFile = join(root, 'var/emu/admin-bearer');
  if (!existsSync(tokenFile)) {
    const minted = await runProgram({ root, engine, program: tokenProgram, args: ['create', '--name', 'admin', '--scope', '*:rw', '--json'] });
    if (minted.code !== 0) throw new Error(`cannot mint the admin token: ${minted.stderr}`);
    writeFileSync(tokenFile, `${(JSON.parse(minted.stdout) as { bearer: string }).bearer}\n`, { mode: 0o600 });
  }
  const bearer = readFileSync(tokenFile, 'utf8').trim();
  const server = await serve({ root, engine, port });
  const base = baseUrl(server);
  console.log(`Emulated router (${engine} engine) serving ${root} at ${base}`);
  console.log(`Admin token (kept in ${tokenFile}): ${bearer}`);
  console.log(`Try: curl -H 'Authorization: Bearer ${bearer}' ${base}/firewall/zones`);
  return new Promise(() => {});
}

function engineOption(value: string | undefined): Engine {
  const engine = value ?? 'wasm';
  if (!engines.includes(engine as Engine)) throw new Error(`--engine must be one of ${engines.join(', ')}`);
  return engine as Engine;
}

function packageManagerOption(value: string | undefined): PackageManager {
  if (value !== undefined && value !== 'opkg' && value !== 'apk') throw new Error('--package-manager must be opkg or apk');
  return (value ?? 'opkg') as PackageManager;
}

function required(value: string | undefined, option: string): string {
  if (value === undefined) throw new Error(`${option} is required\n${usage}`);
  return value;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`wrtapi-emu: ${error.message}`);
    process.exit(1);
  },
);
