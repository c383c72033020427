/**
 * A small, bounded XML parser: enough for FCPXML (elements, attributes, text, comments, CDATA,
 * the XML declaration and a DOCTYPE without an internal subset). Entity declarations are refused
 * (no expansion attacks), and so are the predefined entities' misuse, unclosed or mismatched
 * tags, duplicate attributes and a second root. Depth and node count are capped.
 */

export interface XmlElement {
  name: string;
  attrs: ReadonlyMap<string, string>;
  children: XmlElement[];
  /** the element's own text (not its children's), entities decoded */
  text: string;
}

export class XmlError extends Error {
  constructor(message: string, offset: number) {
    super(`XML: ${message} (at character ${offset})`);
    this.name = 'XmlError';
  }
}

export const MAX_XML_DEPTH = 64;
export const MAX_XML_NODES = 500_000;

const NAME = /[A-Za-z_:][-A-Za-z0-9_.:]*/y;
const SPACE = /[ \t\r\n]*/y;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  return raw.replace(/&([^;&\s]{0,10});?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new XmlError(`a bare '&' (write &amp;)`, at);
    if (ref.startsWith('#')) {
      const code = ref.startsWith('#x') ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      const legal = code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0x10ffff && (code < 0xfffe || code > 0xffff));
      if (!Number.isFinite(code) || !/^#(x[0-9a-fA-F]+|[0-9]+)$/.test(ref) || !legal) throw new XmlError(`the character reference &${ref}; names no XML character`, at);
      return String.fromCodePoint(code);
    }
    const named = PREDEFINED[ref];
    if (named === undefined) throw new XmlError(`the entity &${ref}; is not one of XML's five`, at);
    return named;
  });
}

class Cursor {
  pos = 0;
  nodes = 0;
  constructor(readonly src: string) {}

  match(re: RegExp): string | null {
    re.lastIndex = this.pos;
    const m = re.exec(this.src);
    if (!m) return null;
    this.pos = re.lastIndex;
    return m[0];
  }

  skipSpace(): void {
    this.match(SPACE);
  }

  startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  /** Moves past `end`, returning what came before it. */
  until(end: string, what: string): string {
    const at = this.src.indexOf(end, this.pos);
    if (at < 0) throw new XmlError(`an unclosed ${what}`, this.pos);
    const body = this.src.slice(this.pos, at);
    this.pos = at + end.length;
    return body;
  }

  fail(message: string): never {
    throw new XmlError(message, this.pos);
  }
}

/** Skips comments, processing instructions and (before the root) one DOCTYPE; false when none was next. */
function skipMisc(c: Cursor, prolog: boolean): boolean {
  if (c.startsWith('<!--')) {
    c.pos += 4;
    if (c.until('-->', 'comment').includes('--')) c.fail("a comment holds '--'");
    return true;
  }
  if (c.startsWith('<?')) {
    c.pos += 2;
    const target = c.match(NAME);
    if (!target) c.fail('a processing instruction without a name');
    if (target.toLowerCase() === 'xml' && c.pos !== 5 + (c.src.charCodeAt(0) === 0xfeff ? 1 : 0)) c.fail('the XML declaration is not at the start');
    c.until('?>', 'processing instruction');
    return true;
  }
  if (prolog && c.startsWith('<!DOCTYPE')) {
    const body = c.until('>', 'DOCTYPE');
    if (body.includes('[')) c.fail('a DOCTYPE with an internal subset (entity declarations are refused)');
    return true;
  }
  return false;
}

function parseAttrs(c: Cursor): Map<string, string> {
  const attrs = new Map<string, string>();
  for (;;) {
    const before = c.pos;
    c.skipSpace();
    if (c.startsWith('>') || c.startsWith('/>')) return attrs;
    if (c.pos === before) c.fail('attributes must be separated by white space');
    const name = c.match(NAME);
    if (!name) c.fail('an attribute without a name');
    c.skipSpace();
    if (!c.startsWith('=')) c.fail(`the attribute ${name} has no value`);
    c.pos += 1;
    c.skipSpace();
    const quote = c.src[c.pos];
    if (quote !== '"' && quote !== "'") c.fail(`the attribute ${name} is not quoted`);
    c.pos += 1;
    const at = c.pos;
    const raw = c.until(quote, `attribute ${name}`);
    if (raw.includes('<')) throw new XmlError(`'<' inside the attribute ${name}`, at);
    if (attrs.has(name)) throw new XmlError(`the attribute ${name} is given twice`, at);
    // white space in a value is normalised to spaces before references are decoded (&#10; stays a line feed)
    attrs.set(name, decode(raw.replace(/[\t\r\n]/g, ' '), at));
  }
}

function parseElement(c: Cursor, depth: number): XmlElement {
  if (depth > MAX_XML_DEPTH) c.fail(`elements nested deeper than ${MAX_XML_DEPTH}`);
  c.nodes += 1;
  if (c.nodes > MAX_XML_NODES) c.fail(`more than ${MAX_XML_NODES} elements`);
  c.pos += 1; // '<'
  const name = c.match(NAME);
  if (!name) c.fail('an element without a name');
  const el: XmlElement = { name, attrs: parseAttrs(c), children: [], text: '' };
  if (c.startsWith('/>')) {
    c.pos += 2;
    return el;
  }
  c.pos += 1; // '>'
  const text: string[] = [];
  for (;;) {
    const at = c.pos;
    const next = c.src.indexOf('<', c.pos);
    if (next < 0) c.fail(`the element ${name} is not closed`);
    const chunk = c.src.slice(c.pos, next);
    if (chunk.includes(']]>')) throw new XmlError("']]>' in text", at);
    text.push(decode(chunk, at));
    c.pos = next;
    if (c.startsWith('</')) {
      c.pos += 2;
      const end = c.match(NAME);
      if (end !== name) c.fail(`</${end ?? ''}> closes <${name}>`);
      c.skipSpace();
      if (!c.startsWith('>')) c.fail(`the end tag of ${name} is not closed`);
      c.pos += 1;
      el.text = text.join('');
      return el;
    }
    if (c.startsWith('<![CDATA[')) {
      c.pos += 9;
      text.push(c.until(']]>', 'CDATA section'));
      continue;
    }
    if (skipMisc(c, false)) continue;
    if (c.startsWith('<!')) c.fail('a markup declaration inside an element');
    el.children.push(parseElement(c, depth + 1));
  }
}

/** The root element of `src`; throws XmlError when it is not well-formed (within the caps). */
export function parseXml(src: string): XmlElement {
  const c: Cursor = new Cursor(src);
  if (src.charCodeAt(0) === 0xfeff) c.pos = 1;
  let root: XmlElement | null = null;
  for (;;) {
    c.skipSpace();
    if (c.pos >= src.length) break;
    if (skipMisc(c, root === null)) continue;
    if (!c.startsWith('<') || c.startsWith('<!') || c.startsWith('</')) c.fail(root ? 'content after the root element' : 'no root element');
    if (root) c.fail('a second root element');
    root = parseElement(c, 1);
  }
  if (!root) c.fail('no root element');
  return root;
}

/** The element's children named `name`. */
export const childrenNamed = (el: XmlElement, name: string): XmlElement[] => el.children.filter((ch) => ch.name === name);
