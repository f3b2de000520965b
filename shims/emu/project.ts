import { fileURLToPath } from 'node:url';

/** The repository root, found from this file's place in dist/node/shims/emu/. */
export const projectRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where `npm run build` puts the QuickJS programs: the CGI entry `wrtapi.js`, `wrtapi-token.js`, chunks. */
export const bundleDir = `${projectRoot}dist/qjs`;

/** Where the build puts what the package wrtapi-doc installs in /usr/share/wrtapi-doc (build/generators/prose.ts). */
export const docDir = `${projectRoot}dist/wrtapi-doc`;
