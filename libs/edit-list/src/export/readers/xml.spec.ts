import { MAX_XML_DEPTH, XmlError, parseXml } from './xml';

const error = (src: string): string => {
  try {
    parseXml(src);
  } catch (err) {
    if (err instanceof XmlError) return err.message;
    throw err;
  }
  throw new Error('expected an XmlError');
};

describe('the XML parser', () => {
  it('reads elements, attributes in either quotes, text with the five entities and character references, CDATA, comments and the prolog', () => {
    const root = parseXml('\uFEFF<?xml version="1.0" encoding="UTF-8"?>\r\n<!DOCTYPE fcpxml>\n<!-- a note -->\n<a x="1 &amp; 2" y=\'&lt;&#65;&#x42;&gt;\'>t&quot;<b/><![CDATA[<raw>]]><c k="v"></c>&apos;</a>\n<!-- after -->');
    expect(root.name).toBe('a');
    expect([...root.attrs]).toEqual([['x', '1 & 2'], ['y', '<AB>']]);
    expect(root.text).toBe('t"<raw>\'');
    expect(root.children.map((c) => c.name)).toEqual(['b', 'c']);
    expect(root.children[1]!.attrs.get('k')).toBe('v');
    // attribute white space becomes spaces; a character reference keeps its line feed
    expect(parseXml('<a v="x\ty\nz&#10;w"/>').attrs.get('v')).toBe('x y z\nw');
  });

  it('refuses what is not well-formed, with where it broke', () => {
    expect(error('<a><b></a>')).toMatch(/<\/a> closes <b>/);
    expect(error('<a>')).toMatch(/not closed/);
    expect(error('<a/><b/>')).toMatch(/a second root element/);
    expect(error('<a x="1" x="2"/>')).toMatch(/given twice/);
    expect(error('<a x=1/>')).toMatch(/not quoted/);
    expect(error('<a x="<"/>')).toMatch(/'<' inside the attribute/);
    expect(error('<a>&nbsp;</a>')).toMatch(/not one of XML's five/);
    expect(error('<a>fish & chips</a>')).toMatch(/bare '&'/);
    expect(error('<a>&#0;</a>')).toMatch(/names no XML character/);
    expect(error('text')).toMatch(/no root element/);
    expect(error('<a/>trailing')).toMatch(/content after the root/);
    expect(error('<a/><?xml version="1.0"?>')).toMatch(/not at the start/);
    expect(error('<!-- a -- b --><a/>')).toMatch(/holds '--'/);
  });

  it('refuses entity declarations (no expansion) and nesting past its cap', () => {
    expect(error('<!DOCTYPE a [<!ENTITY e "eeee">]><a>&e;</a>')).toMatch(/internal subset/);
    expect(error(`${'<a>'.repeat(MAX_XML_DEPTH + 1)}${'</a>'.repeat(MAX_XML_DEPTH + 1)}`)).toMatch(/nested deeper than 64/);
    expect(() => parseXml(`${'<a>'.repeat(MAX_XML_DEPTH)}${'</a>'.repeat(MAX_XML_DEPTH)}`)).not.toThrow();
  });
});
