/*
 * A small static board drawn from a FEN with Unicode pieces: cheap enough for lists of live
 * games. Decorative: lists describe the game in text beside it.
 */
// The filled glyphs for both sides, coloured by CSS: the outlined ones read poorly when small.
const GLYPHS: Record<string, string> = { k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };

export function MiniBoard({ fen, flipped = false }: { fen: string; flipped?: boolean }) {
  const rows = fen.split(' ')[0].split('/');
  const cells: { piece: string; dark: boolean; key: string }[] = [];
  rows.forEach((row, r) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) {
        for (let i = 0; i < Number(ch); i++, f++) cells.push({ piece: '', dark: (r + f) % 2 === 1, key: `${r}${f}` });
      } else {
        cells.push({ piece: ch, dark: (r + f) % 2 === 1, key: `${r}${f}` });
        f++;
      }
    }
  });
  if (flipped) cells.reverse();
  return (
    <div className="mini-board" aria-hidden="true">
      {cells.map((c) => (
        <span key={c.key} className={`${c.dark ? 'd' : 'l'} ${c.piece && c.piece === c.piece.toUpperCase() ? 'w' : 'b'}`}>
          {c.piece ? GLYPHS[c.piece.toLowerCase()] : ''}
        </span>
      ))}
    </div>
  );
}
