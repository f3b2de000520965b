// The custom feeds file as records {name, url}, and the text a change leaves: every line that is no
// feed (comments, blank lines, anything else) stays as it was.
//
// opkg (libopkg/opkg_conf.c): `src/gz <name> <url>` (or `src`, an uncompressed list) on a line of
// /etc/opkg/customfeeds.conf; the name is also the file of its list, and a name declared twice
// across /etc/opkg.conf and /etc/opkg/*.conf is skipped by opkg.
// apk (apk-tools 3.0, src/repoparser.c): a URL a line of /etc/apk/repositories.d/customfeeds.list,
// with no name of its own; further words on the line would be path components. wrtapi names a feed
// with the comment line `# wrtapi-feed: <name>` right above its URL; a URL line without one (written
// by hand) reads as `url_<8 hex digits>`, a hash of the line, so it keeps its name while it stays.
import type { Manager } from './managers.js';

export interface Feed {
  name: string;
  url: string;
}

/** A feed where it lies: its first line and how many lines it takes. */
export interface Placed extends Feed {
  at: number;
  span: number;
  keyword: string;
}

const APK_NAME = /^#[ \t]*wrtapi-feed:[ \t]*(\S+)[ \t]*$/;
const OPKG_LINE = /^[ \t]*(src(?:\/gz)?)[ \t]+(\S+)[ \t]+(\S+)[ \t]*$/;

const unquoted = (word: string) => word.replace(/^"(.*)"$/, '$1');

/** FNV-1a, 32 bits: a name for a URL line nobody named. */
function hashName(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `url_${hash.toString(16).padStart(8, '0')}`;
}

export function parseFeeds(tool: Manager['tool'], text: string): Placed[] {
  const lines = text.split('\n');
  const feeds: Placed[] = [];
  lines.forEach((line, at) => {
    if (tool === 'opkg') {
      const match = OPKG_LINE.exec(line);
      if (match) feeds.push({ name: unquoted(match[2]), url: unquoted(match[3]), at, span: 1, keyword: match[1] });
      return;
    }
    const url = line.trim();
    if (!url || url.startsWith('#')) return;
    const named = at > 0 ? APK_NAME.exec(lines[at - 1]) : null;
    feeds.push(named ? { name: named[1], url, at: at - 1, span: 2, keyword: '' } : { name: hashName(url), url, at, span: 1, keyword: '' });
  });
  return feeds;
}

function feedLines(tool: Manager['tool'], { name, url }: Feed, keyword = 'src/gz'): string[] {
  return tool === 'opkg' ? [`${keyword} ${name} ${url}`] : [`# wrtapi-feed: ${name}`, url];
}

/** The text with the feed appended. */
export function withFeed(tool: Manager['tool'], text: string, feed: Feed): string {
  const base = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return `${base}${feedLines(tool, feed).join('\n')}\n`;
}

/** The text with the placed feed replaced by `feed`, or dropped without one. */
export function replacedFeed(tool: Manager['tool'], text: string, placed: Placed, feed?: Feed): string {
  const lines = text.split('\n');
  lines.splice(placed.at, placed.span, ...(feed ? feedLines(tool, feed, placed.keyword || undefined) : []));
  return lines.join('\n');
}
