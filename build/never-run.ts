// What a request compiles and never runs. QuickJS compiles every function of a module it loads, so
// code a request never runs still costs it ~600 instructions a byte: these figures say how much of a
// request's cost trimming could take away at most. QuickJS reports no coverage, so the same bundle
// runs on Node (shims/emu/node-runner.ts) under V8's precise coverage.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleDir } from '../shims/emu/project.js';
import { runRequest, type Invocation } from './request-costs.js';

const nodeRunner = fileURLToPath(new URL('../shims/emu/node-runner.js', import.meta.url));

export interface NeverRun {
  /** Bytes of the bundle's modules the request loaded. */
  loaded: number;
  /** Of those, the bytes of functions it never called. */
  uncalled: number;
  /** The bytes of functions never called and of blocks never run in the functions it called. */
  unrun: number;
}

interface CoverageRange {
  startOffset: number;
  endOffset: number;
  count: number;
}

/** The bytes of ranges, counting a range inside another once. */
function outermost(ranges: CoverageRange[]): number {
  const sorted = [...ranges].sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  let covered = 0;
  let end = -1;
  for (const range of sorted) {
    if (range.startOffset < end) continue;
    covered += range.endOffset - range.startOffset;
    end = range.endOffset;
  }
  return covered;
}

export function neverRun(root: string, invocation: Invocation): NeverRun {
  const coverage = mkdtempSync(join(tmpdir(), 'wrtapi-coverage-'));
  try {
    runRequest(root, { ...invocation, env: { ...invocation.env, NODE_V8_COVERAGE: coverage } }, [process.execPath, nodeRunner]);
    const totals: NeverRun = { loaded: 0, uncalled: 0, unrun: 0 };
    for (const file of readdirSync(coverage)) {
      const scripts = JSON.parse(readFileSync(join(coverage, file), 'utf8')).result as { url: string; functions: { ranges: CoverageRange[] }[] }[];
      for (const script of scripts.filter(({ url }) => url.startsWith(`file://${bundleDir}/`))) {
        totals.loaded += statSync(fileURLToPath(script.url)).size;
        // A function's first range is its whole body; the others are blocks inside it.
        totals.uncalled += outermost(script.functions.map(({ ranges }) => ranges[0]).filter(({ count }) => count === 0));
        totals.unrun += outermost(script.functions.flatMap(({ ranges }) => ranges.filter(({ count }) => count === 0)));
      }
    }
    return totals;
  } finally {
    rmSync(coverage, { recursive: true, force: true });
  }
}
