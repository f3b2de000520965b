// Reads a package the way libuci's file.c reads /etc/config/<package> (uci_import with the
// default strict flag, so the first error aborts). libuci tokenizes in place inside a line buffer
// and marks its end with a NUL byte; `end` below is that NUL, `pos` its cursor.

import { isValidName, isValidType, type UciPackage } from './model.js';
import { packageBuilder, UciSyntaxError } from './read.js';

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

// Closures rather than a class: terser shortens local names, never property names.
export function parseUci(text: string): UciPackage {
  const builder = packageBuilder();
  let pos = 0;
  let end = 0;
  let nextLine = 0;
  let line = 0;

  function fail(reason: string): never {
    throw new UciSyntaxError(line, reason);
  }

  function cur(): number {
    return pos < end ? text.charCodeAt(pos) : END;
  }

  // uci_getln(): the next physical line (newline included) continues the buffer at `pos`.
  function fetchLine(): boolean {
    if (nextLine >= text.length) {
      end = pos;
      return false;
    }
    pos = nextLine;
    const newline = text.indexOf('\n', pos);
    end = nextLine = newline === -1 ? text.length : newline + 1;
    line++;
    return true;
  }

  function skipWhitespace(): void {
    while (pos < end && isSpace(text.charCodeAt(pos))) pos++;
  }

  // uci_parse_line(): commands separated by `;`, each found with strtok(" \t").
  function parseLine(): void {
    skipWhitespace();
    for (;;) {
      let start = pos;
      while (start < end && isBlank(text.charCodeAt(start))) start++;
      if (start >= end) return;
      let stop = start;
      while (stop < end && !isBlank(text.charCodeAt(stop))) stop++;
      const word = text.slice(start, stop);
      if (word[0] === '#') return;
      const command = commandOf(word) ?? fail('invalid command');
      if (command === 'option' || command === 'list') {
        if (!builder.isOpen()) fail('option/list command found before the first section');
        skipCommand(stop, 'option');
        parseOption(command === 'list');
      } else {
        skipCommand(stop, command);
        if (command === 'package') parsePackage();
        else parseConfig();
      }
    }
  }

  // uci_increase_pos() past the command word and the NUL strtok() wrote after it.
  function skipCommand(stop: number, command: string): void {
    if (stop >= end) fail(`${command} without name`);
    pos = stop + 1;
  }

  // A `package` line names the package; loading /etc/config/<name> ignores it.
  function parsePackage(): void {
    nextArg(true, isValidPackageName);
    assertEol();
  }

  function parseConfig(): void {
    const type = nextArg(true);
    if (!isValidType(type)) fail('invalid character in type field');
    const name = nextArg(false, isValidName);
    assertEol();
    if (!builder.config(type, name)) fail('section of different type overwrites prior section with same name');
  }

  function parseOption(list: boolean): void {
    const name = nextArg(true, isValidName);
    const value = nextArg(false);
    assertEol();
    builder.option(name, value, list);
  }

  function assertEol(): void {
    if (nextArg(false) !== '') fail('too many arguments');
  }

  function nextArg(required: boolean, isValid?: (name: string) => boolean): string {
    skipWhitespace();
    let value = '';
    if (cur() === SEMICOLON) pos++;
    else value = parseString();
    if (value === '') {
      if (required) fail('insufficient arguments');
      return value;
    }
    if (isValid && !isValid(value)) fail('invalid character in name field');
    return value;
  }

  // parse_str(): unquoted, '…' and "…" pieces glued together until whitespace.
  function parseString(): string {
    let value = '';
    // While no quote or backslash has been consumed, libuci's terminating NUL lands on the
    // character that stopped the string: on a `;` that cuts the rest of the line.
    let plain = true;
    for (;;) {
      const c = cur();
      if (c === SQUOTE) {
        value += singleQuoted();
        plain = false;
      } else if (c === DQUOTE) {
        value += doubleQuoted();
        plain = false;
      } else if (c === HASH) {
        end = pos;
        break;
      } else if (c === END) {
        break;
      } else if (c === SEMICOLON) {
        if (plain) end = pos;
        return value;
      } else if (c === BACKSLASH) {
        value += backslash();
        plain = false;
      } else {
        let stop = pos + 1;
        while (stop < end && !isSpace(text.charCodeAt(stop)) && !isSpecial(text.charCodeAt(stop))) stop++;
        value += text.slice(pos, stop);
        pos = stop;
      }
      const next = cur();
      if (next === END || isSpace(next)) break;
    }
    if (cur() !== END) pos++;
    return value;
  }

  // parse_single_quote(): no escapes; a newline inside continues the value on the next line.
  function singleQuoted(): string {
    pos++;
    let value = '';
    for (;;) {
      const close = text.indexOf("'", pos);
      if (close !== -1 && close < end) {
        value += text.slice(pos, close);
        pos = close + 1;
        return value;
      }
      value += text.slice(pos, end);
      pos = end;
      if (!fetchLine()) fail("EOF with unterminated '");
    }
  }

  // parse_double_quote(): backslash escapes; a newline inside continues the value.
  function doubleQuoted(): string {
    pos++;
    let value = '';
    for (;;) {
      const c = cur();
      if (c === DQUOTE) {
        pos++;
        return value;
      }
      if (c === END) {
        if (!fetchLine()) fail('EOF with unterminated "');
      } else if (c === BACKSLASH) {
        value += backslash();
      } else {
        let stop = pos + 1;
        while (stop < end && text.charCodeAt(stop) !== DQUOTE && text.charCodeAt(stop) !== BACKSLASH) stop++;
        value += text.slice(pos, stop);
        pos = stop;
      }
    }
  }

  // parse_backslash(): the next character is taken literally (no `\n`-style decoding); a
  // backslash ending the line joins the next line.
  function backslash(): string {
    pos++;
    const c = cur();
    if (c === END || c === LF || (c === CR && pos + 1 < end && text.charCodeAt(pos + 1) === LF)) {
      fetchLine();
      return '';
    }
    pos++;
    return String.fromCharCode(c);
  }

  // libuci reads C strings: a NUL byte would silently cut its line there. Refuse such a file
  // rather than read it differently.
  const nul = text.indexOf('\0');
  if (nul !== -1) throw new UciSyntaxError(text.slice(0, nul).split('\n').length, 'NUL character');
  while (fetchLine()) parseLine();
  return builder.pkg;
}
