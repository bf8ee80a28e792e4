/*
 * The piece sets cut out of their packages' files: every piece of each set becomes an SVG
 * image, from small made-up files (what is taken from where) and from the real files shipped
 * in node_modules (the packages still have what the client needs).
 */
import meridaFont from 'chess-merida-font/fonts/chessmerida-webfont.svg?raw';
import cmSprite from 'cm-chessboard/assets/pieces/standard.svg?raw';
import { describe, expect, it } from 'vitest';
import { fontGlyphs, meridaPieces, PIECE_CODES, spritePieces } from './pieces';

function svgOf(url: string): string {
  expect(url.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
  return decodeURIComponent(url.slice(url.indexOf(',') + 1));
}

describe('merida', () => {
  const letters = 'klqwrtbvnmpo';
  const font = `<svg><font>${[...letters]
    .map((ch) => `<glyph glyph-name="${ch}" unicode="${ch}"\n d="M${ch.charCodeAt(0)} 0z" />`)
    .join('')}<glyph unicode="ab" d="M0 0z"/></font></svg>`;

  it('reads the glyphs by character', () => {
    const glyphs = fontGlyphs(font);
    expect(Object.keys(glyphs).sort().join('')).toBe([...letters].sort().join(''));
    expect(glyphs.p).toBe('M112 0z');
  });

  it("draws each piece: the black glyph white behind, the piece's own glyph in front", () => {
    const pieces = meridaPieces(font);
    expect(Object.keys(pieces).sort()).toEqual([...PIECE_CODES].sort());
    const wp = svgOf(pieces.wP);
    expect(wp).toContain('<path d="M111 0z" fill="#fff"'); // "o": the black pawn, behind
    expect(wp).toContain('<path d="M112 0z" fill="#000"/>'); // "p": the white pawn's lines
    expect(svgOf(pieces.bK)).toContain('<path d="M108 0z" fill="#000"/>'); // "l"
  });

  it('says which glyph is missing', () => {
    expect(() => meridaPieces('<svg></svg>')).toThrow(/no glyph/);
  });

  it("cuts every piece out of chess-merida-font's file", () => {
    const pieces = meridaPieces(meridaFont);
    for (const code of PIECE_CODES) expect(svgOf(pieces[code])).toMatch(/^<svg [^>]*viewBox/);
  });
});

describe('wikimedia', () => {
  const sprite = `<svg>${PIECE_CODES.map(
    (c) => `<g id="${c.toLowerCase()}" fill="#fff"><g id="Group"><path d="M${c}"/></g><circle r="1"/></g>`,
  ).join('\n')}<g id="marker"/></svg>`;

  it('cuts each piece with its nested groups, and nothing of the next', () => {
    const pieces = spritePieces(sprite);
    const wq = svgOf(pieces.wQ);
    expect(wq).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><g id="wq" fill="#fff"><g id="Group"><path d="MwQ"/></g><circle r="1"/></g></svg>',
    );
  });

  it('says which piece is missing', () => {
    expect(() => spritePieces('<svg><g id="wk"></g></svg>')).toThrow(/no piece wQ/);
  });

  it("cuts every piece out of cm-chessboard's sprite", () => {
    const pieces = spritePieces(cmSprite);
    for (const code of PIECE_CODES) expect(svgOf(pieces[code])).toContain(`<g id="${code.toLowerCase()}"`);
  });
});
