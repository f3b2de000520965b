import { getenv } from 'std';
import type { NativeModule } from './ports.js';

// wrtapi-bytecode, when installed, caches every module's bytecode in RAM (packaging/README.md);
// without it, or when it cannot load (another architecture) or refuses its folder, the modules are
// compiled from source as qjs does. Its SHA-256 serves the request whether or not the cache is in
// use: the module is left in `wrtapiNative` for the ports (an import() of the CGI entry cannot
// hand it over). Its paths are router paths, under WRTAPI_ROOT as every other (unset on a router;
// a trailing slash there only doubles one). This file is compiled by every request before the cache
// is in place: it stays a few plain statements.
const root = getenv('WRTAPI_ROOT') ?? '';
import(`${root}/usr/lib/wrtapi/bytecode.so`)
  .then((native: NativeModule) => (globalThis.wrtapiNative = native).use(`${root}/tmp/wrtapi/bytecode`), () => false)
  .then(() => import('./cgi.js'))
  .then((cgi) => cgi.serve());
