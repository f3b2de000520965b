// Kept equal to package.json's version by a unit test; /healthz reports it.
export const VERSION = '3.0.0';

// This build's identity, for what wrtapi-bytecode keeps between requests (Ports.derived): a value
// one build made is not another's. Rollup writes the bundle's own hash over this placeholder
// (rollup.config.ts).
export const BUILD = 'wrtapi-build-000';
