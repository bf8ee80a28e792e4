/*
 * The piece sets a player may choose, shipped with the client from npm packages with free
 * licences (docs/client.md, "Settings"; LICENSES/third-party.md):
 *
 * - cburnett: react-chessboard's own pieces (Colin M. L. Burnett's set), drawn by the board
 *   itself: nothing to load.
 * - merida: the glyphs of the Chess Merida font (chess-merida-font, MPL-2.0), each piece made an
 *   SVG image: the black piece's glyph filled white behind the piece's own glyph in black.
 * - wikimedia: the Wikimedia Commons standard pieces of cm-chessboard's sprite (CC BY-SA 3.0),
 *   each piece cut out of the sprite as an SVG image of its own.
 *
 * A set's source file is imported only when the set is chosen (a chunk of its own), so the
 * client's first load does not carry it. The cutting is pure (testable on the files' text); the
 * result is one data: URL per piece ("wK", "bQ", ... as react-chessboard names them).
 */
import type { PieceSetId } from './controller';

/** Image URLs by piece ("wK", "bP", ...). */
export type PieceImages = Record<string, string>;

export const PIECE_CODES = ['wK', 'wQ', 'wR', 'wB', 'wN', 'wP', 'bK', 'bQ', 'bR', 'bB', 'bN', 'bP'] as const;

/** What the settings page says of each set. */
export const PIECE_SET_INFO: Record<PieceSetId, { name: string; credit: string }> = {
  cburnett: { name: 'CBurnett', credit: 'Colin M. L. Burnett (react-chessboard, MIT)' },
  merida: { name: 'Merida', credit: 'Armando H. Marroquín (chess-merida-font, MPL-2.0)' },
  wikimedia: { name: 'Wikimedia', credit: 'Wikimedia Commons (cm-chessboard, CC BY-SA 3.0)' },
};

function svgUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

// ---- merida: from the font ----

/** The Merida font's letters: the white piece and the black piece of each kind. */
const MERIDA_GLYPHS: Record<string, { white: string; black: string }> = {
  K: { white: 'k', black: 'l' },
  Q: { white: 'q', black: 'w' },
  R: { white: 'r', black: 't' },
  B: { white: 'b', black: 'v' },
  N: { white: 'n', black: 'm' },
  P: { white: 'p', black: 'o' },
};

/** The outlines (SVG path data) of a font's glyphs by their character. */
export function fontGlyphs(fontSvg: string): Record<string, string> {
  const glyphs: Record<string, string> = {};
  for (const m of fontSvg.matchAll(/<glyph\b([^>]*)>/g)) {
    const unicode = /\bunicode="([^"]*)"/.exec(m[1]);
    const d = /\bd="([^"]*)"/.exec(m[1]);
    if (unicode && d && unicode[1].length === 1) glyphs[unicode[1]] = d[1].replace(/\s+/g, ' ');
  }
  return glyphs;
}

/** The Merida pieces from the font's SVG version (chessmerida-webfont.svg). Glyphs are 2048
 * units square with y upwards: flipped into the image's square. */
export function meridaPieces(fontSvg: string): PieceImages {
  const glyphs = fontGlyphs(fontSvg);
  const out: PieceImages = {};
  for (const [kind, { white, black }] of Object.entries(MERIDA_GLYPHS)) {
    const body = glyphs[black];
    if (!body || !glyphs[white]) throw new Error(`the Merida font has no glyph for ${kind}`);
    // The black piece's outline, thickened and white, fills the piece behind its lines.
    const back = `<path d="${body}" fill="#fff" stroke="#fff" stroke-width="90" stroke-linejoin="round"/>`;
    for (const color of ['w', 'b'] as const) {
      const front = `<path d="${color === 'w' ? glyphs[white] : body}" fill="#000"/>`;
      out[color + kind] = svgUrl(
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-64 -64 2176 2176">` +
          `<g transform="matrix(1 0 0 -1 0 2048)">${back}${front}</g></svg>`,
      );
    }
  }
  return out;
}

// ---- wikimedia: from cm-chessboard's sprite ----

/** The element `<g id="...">` of a sprite with everything inside it (nested groups too). */
function spriteGroup(sprite: string, id: string): string | null {
  const start = sprite.indexOf(`<g id="${id}"`);
  if (start < 0) return null;
  let depth = 0;
  const tags = /<g\b|<\/g>/g;
  tags.lastIndex = start;
  for (let m = tags.exec(sprite); m; m = tags.exec(sprite)) {
    depth += m[0] === '</g>' ? -1 : 1;
    if (depth === 0) return sprite.slice(start, m.index + 4);
  }
  return null;
}

/** The pieces of a cm-chessboard sprite (40 units square, one group per piece: "wk", ...). */
export function spritePieces(sprite: string): PieceImages {
  const out: PieceImages = {};
  for (const code of PIECE_CODES) {
    const group = spriteGroup(sprite, code.toLowerCase());
    if (!group) throw new Error(`the sprite has no piece ${code}`);
    out[code] = svgUrl(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">${group}</svg>`);
  }
  return out;
}

// ---- loading ----

const loaded = new Map<PieceSetId, Promise<PieceImages | null>>();

/** A set's images (null for the board's own set), loaded once. */
export function loadPieceSet(id: PieceSetId): Promise<PieceImages | null> {
  let images = loaded.get(id);
  if (!images) {
    images = fetchSet(id);
    loaded.set(id, images);
    images.catch(() => loaded.delete(id)); // a failed chunk may load next time
  }
  return images;
}

async function fetchSet(id: PieceSetId): Promise<PieceImages | null> {
  switch (id) {
    case 'cburnett':
      return null;
    case 'merida':
      return meridaPieces((await import('chess-merida-font/fonts/chessmerida-webfont.svg?raw')).default);
    case 'wikimedia':
      return spritePieces((await import('cm-chessboard/assets/pieces/standard.svg?raw')).default);
  }
}
