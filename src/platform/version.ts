// Kept equal to package.json's version by a unit test; /healthz reports it.
export const VERSION = '3.0.0';
