// Reads a package the way libuci's file.c reads /etc/config/<package> (uci_import with the
// default strict flag, so the first error aborts). libuci tokenizes in place inside a line buffer
// and marks its end with a NUL byte; `end` below is that NUL, `pos` its cursor.

import { anonymousName, isValidName, isValidType, type UciPackage, type UciSection } from './model.js';

export class UciSyntaxError extends Error {
  readonly line: number;
  readonly reason: string;

  constructor(line: number, reason: string) {
    super(`line ${line}: ${reason}`);
    this.name = 'UciSyntaxError';
    this.line = line;
    this.reason = reason;
  }
}

export function parseUci(text: string): UciPackage {
  return new Parser(text).parse();
}

const END = -1;
const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const DQUOTE = 34;
const HASH = 35;
const SQUOTE = 39;
const SEMICOLON = 59;
const BACKSLASH = 92;

// A blank line or a line exactly as `uci commit` writes it (value without quote or newline, LF
// ending): the tokenizer below would read it the same way, this reads it three times faster.
const CANONICAL_LINE = /(?:\t(option|list) ([A-Za-z0-9_]+) '([^'\n]*)'|config ([A-Za-z0-9_-]+)(?: '([A-Za-z0-9_]+)')?)?\n/y;
const PACKAGE_NAME = /^[A-Za-z0-9_-]+$/;

function isValidPackageName(name: string): boolean {
  return PACKAGE_NAME.test(name);
}

// C isspace() in the C locale.
function isSpace(c: number): boolean {
  return c === SPACE || (c >= TAB && c <= CR);
}

// The delimiters strtok() splits command words on.
function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

// What ends an unquoted run besides whitespace.
function isSpecial(c: number): boolean {
  return c === SQUOTE || c === DQUOTE || c === HASH || c === SEMICOLON || c === BACKSLASH;
}

function commandOf(word: string): 'package' | 'config' | 'option' | 'list' | undefined {
  switch (word) {
    case 'p':
    case 'package':
      return 'package';
    case 'c':
    case 'config':
      return 'config';
    case 'o':
    case 'option':
      return 'option';
    case 'l':
    case 'list':
      return 'list';
    default:
      return undefined;
  }
}

class Parser {
  private readonly text: string;
  private readonly pkg: UciPackage = { sections: [] };
  private readonly byName = new Map<string, UciSection>();
  private section: UciSection | undefined;
  private pos = 0;
  private end = 0;
  private nextLine = 0;
  private line = 0;

  constructor(text: string) {
    this.text = text;
  }

  parse(): UciPackage {
    // libuci reads C strings: a NUL byte would silently cut its line there. Refuse such a file
    // rather than read it differently.
    const nul = this.text.indexOf('\0');
    if (nul !== -1) throw new UciSyntaxError(this.text.slice(0, nul).split('\n').length, 'NUL character');
    while (this.fetchLine()) if (!this.parseCanonicalLine()) this.parseLine();
    return this.pkg;
  }

  private fail(reason: string): never {
    throw new UciSyntaxError(this.line, reason);
  }

  private cur(): number {
    return this.pos < this.end ? this.text.charCodeAt(this.pos) : END;
  }

  // uci_getln(): the next physical line (newline included) continues the buffer at `pos`.
  private fetchLine(): boolean {
    if (this.nextLine >= this.text.length) {
      this.end = this.pos;
      return false;
    }
    this.pos = this.nextLine;
    const newline = this.text.indexOf('\n', this.pos);
    this.end = this.nextLine = newline === -1 ? this.text.length : newline + 1;
    this.line++;
    return true;
  }

  private skipWhitespace(): void {
    while (this.pos < this.end && isSpace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  private parseCanonicalLine(): boolean {
    // The general path reports the error of an option before any section.
    CANONICAL_LINE.lastIndex = this.pos;
    const match = CANONICAL_LINE.exec(this.text);
    if (!match || CANONICAL_LINE.lastIndex !== this.end) return false;
    // Indexes, not destructuring, which QuickJS runs through the iterator protocol on every line.
    if (match[1]) {
      if (!this.section) return false;
      this.applyOption(this.section, match[2], match[3], match[1] === 'list');
    } else if (match[4]) {
      this.applyConfig(match[4], match[5] ?? '');
    }
    return true;
  }

  // uci_parse_line(): commands separated by `;`, each found with strtok(" \t").
  private parseLine(): void {
    this.skipWhitespace();
    for (;;) {
      let start = this.pos;
      while (start < this.end && isBlank(this.text.charCodeAt(start))) start++;
      if (start >= this.end) return;
      let stop = start;
      while (stop < this.end && !isBlank(this.text.charCodeAt(stop))) stop++;
      const word = this.text.slice(start, stop);
      if (word[0] === '#') return;
      const command = commandOf(word) ?? this.fail('invalid command');
      if (command === 'option' || command === 'list') {
        const section = this.section ?? this.fail('option/list command found before the first section');
        this.skipCommand(stop, 'option');
        this.parseOption(section, command === 'list');
      } else {
        this.skipCommand(stop, command);
        if (command === 'package') this.parsePackage();
        else this.parseConfig();
      }
    }
  }

  // uci_increase_pos() past the command word and the NUL strtok() wrote after it.
  private skipCommand(stop: number, command: string): void {
    if (stop >= this.end) this.fail(`${command} without name`);
    this.pos = stop + 1;
  }

  // A `package` line names the package; loading /etc/config/<name> ignores it.
  private parsePackage(): void {
    this.nextArg(true, isValidPackageName);
    this.assertEol();
  }

  private parseConfig(): void {
    const type = this.nextArg(true);
    if (!isValidType(type)) this.fail('invalid character in type field');
    const name = this.nextArg(false, isValidName);
    this.assertEol();
    this.applyConfig(type, name);
  }

  private applyConfig(type: string, name: string): void {
    if (name !== '') {
      const existing = this.byName.get(name);
      if (existing) {
        if (existing.type !== type) this.fail('section of different type overwrites prior section with same name');
        this.section = existing;
        return;
      }
    }
    // libuci counts every section it creates, named or not; a reopened named section is not new.
    const anonymous = name === '';
    const section: UciSection = {
      type,
      name: anonymous ? anonymousName(type, this.pkg.sections.length + 1) : name,
      anonymous,
      options: new Map(),
    };
    this.pkg.sections.push(section);
    if (!this.byName.has(section.name)) this.byName.set(section.name, section);
    this.section = section;
  }

  private parseOption(section: UciSection, list: boolean): void {
    const name = this.nextArg(true, isValidName);
    const value = this.nextArg(false);
    this.assertEol();
    this.applyOption(section, name, value, list);
  }

  private applyOption(section: UciSection, name: string, value: string, list: boolean): void {
    const current = section.options.get(name);
    if (list) {
      if (current === undefined) section.options.set(name, [value]);
      else if (typeof current === 'string') section.options.set(name, [current, value]);
      else current.push(value);
    } else if (value !== '') {
      // uci_set() with an empty value on the parser's pointer changes nothing: the option is
      // neither created nor cleared.
      section.options.set(name, value);
    }
  }

  private assertEol(): void {
    if (this.nextArg(false) !== '') this.fail('too many arguments');
  }

  private nextArg(required: boolean, isValid?: (name: string) => boolean): string {
    this.skipWhitespace();
    let value = '';
    if (this.cur() === SEMICOLON) this.pos++;
    else value = this.parseString();
    if (value === '') {
      if (required) this.fail('insufficient arguments');
      return value;
    }
    if (isValid && !isValid(value)) this.fail('invalid character in name field');
    return value;
  }

  // parse_str(): unquoted, '…' and "…" pieces glued together until whitespace.
  private parseString(): string {
    let value = '';
    // While no quote or backslash has been consumed, libuci's terminating NUL lands on the
    // character that stopped the string: on a `;` that cuts the rest of the line.
    let plain = true;
    for (;;) {
      const c = this.cur();
      if (c === SQUOTE) {
        value += this.singleQuoted();
        plain = false;
      } else if (c === DQUOTE) {
        value += this.doubleQuoted();
        plain = false;
      } else if (c === HASH) {
        this.end = this.pos;
        break;
      } else if (c === END) {
        break;
      } else if (c === SEMICOLON) {
        if (plain) this.end = this.pos;
        return value;
      } else if (c === BACKSLASH) {
        value += this.backslash();
        plain = false;
      } else {
        let stop = this.pos + 1;
        while (stop < this.end && !isSpace(this.text.charCodeAt(stop)) && !isSpecial(this.text.charCodeAt(stop))) stop++;
        value += this.text.slice(this.pos, stop);
        this.pos = stop;
      }
      const next = this.cur();
      if (next === END || isSpace(next)) break;
    }
    if (this.cur() !== END) this.pos++;
    return value;
  }

  // parse_single_quote(): no escapes; a newline inside continues the value on the next line.
  private singleQuoted(): string {
    this.pos++;
    let value = '';
    for (;;) {
      const close = this.text.indexOf("'", this.pos);
      if (close !== -1 && close < this.end) {
        value += this.text.slice(this.pos, close);
        this.pos = close + 1;
        return value;
      }
      value += this.text.slice(this.pos, this.end);
      this.pos = this.end;
      if (!this.fetchLine()) this.fail("EOF with unterminated '");
    }
  }

  // parse_double_quote(): backslash escapes; a newline inside continues the value.
  private doubleQuoted(): string {
    this.pos++;
    let value = '';
    for (;;) {
      const c = this.cur();
      if (c === DQUOTE) {
        this.pos++;
        return value;
      }
      if (c === END) {
        if (!this.fetchLine()) this.fail('EOF with unterminated "');
      } else if (c === BACKSLASH) {
        value += this.backslash();
      } else {
        let stop = this.pos + 1;
        while (stop < this.end && this.text.charCodeAt(stop) !== DQUOTE && this.text.charCodeAt(stop) !== BACKSLASH) stop++;
        value += this.text.slice(this.pos, stop);
        this.pos = stop;
      }
    }
  }

  // parse_backslash(): the next character is taken literally (no `\n`-style decoding); a
  // backslash ending the line joins the next line.
  private backslash(): string {
    this.pos++;
    const c = this.cur();
    if (c === END || c === LF || (c === CR && this.pos + 1 < this.end && this.text.charCodeAt(this.pos + 1) === LF)) {
      this.fetchLine();
      return '';
    }
    this.pos++;
    return String.fromCharCode(c);
  }
}
