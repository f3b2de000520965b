// The part of randexp (which ships no types) the generated-request test uses.
declare module 'randexp' {
  export default class RandExp {
    constructor(pattern: string | RegExp);
    /** A string the pattern matches. */
    gen(): string;
    /** The random source: an integer from `a` to `b`, both included. */
    randInt: (a: number, b: number) => number;
    /** The most repetitions `*` and `+` produce. */
    max: number;
  }
}
