/*
 * Engine evaluations for people: the score as text ("+0.4", "#3", "#-2"), White's share of an
 * evaluation bar, and a principal variation with move numbers. Scores are from White's point of
 * view, as the server sends them.
 */
import type { EngineScore } from '../net/protocol';

/** "+1.2" / "-0.3" / "0.0" in pawns, "#3" (White mates) or "#-3" (Black mates). */
export function formatScore(score: EngineScore): string {
  if ('mate' in score) return `#${score.mate}`;
  const pawns = score.cp / 100;
  if (Math.abs(pawns) < 0.05) return '0.0';
  return `${pawns > 0 ? '+' : '-'}${Math.abs(pawns).toFixed(1)}`;
}

/** The score in words, for screen readers. */
export function describeScore(score: EngineScore): string {
  if ('mate' in score) {
    const side = score.mate > 0 ? 'White' : 'Black';
    const n = Math.abs(score.mate);
    return `${side} mates in ${n} ${n === 1 ? 'move' : 'moves'}`;
  }
  const text = formatScore(score);
  if (text === '0.0') return 'equal';
  return `${score.cp > 0 ? 'White' : 'Black'} better by ${text.slice(1)} pawns`;
}

/** White's share of the bar in percent (50: equal), a logistic curve of the centipawns. */
export function whiteShare(score: EngineScore): number {
  if ('mate' in score) return score.mate >= 0 ? 100 : 0;
  const share = 100 / (1 + Math.exp(-0.004 * score.cp));
  return Math.round(share * 10) / 10;
}

/**
 * The variation with move numbers from the position `fen` (whose side to move and move number
 * it reads): "12. Nf3 Nc6 13. Bb5" or "12… Nc6 13. Bb5".
 */
export function numberedPv(fen: string, pv: readonly string[]): string {
  const fields = fen.split(' ');
  let white = fields[1] !== 'b';
  let number = Number(fields[5]) || 1;
  const out: string[] = [];
  pv.forEach((san, i) => {
    if (white) out.push(`${number}. ${san}`);
    else out.push(i === 0 ? `${number}… ${san}` : san);
    if (!white) number++;
    white = !white;
  });
  return out.join(' ');
}
