/*
 * Chess helpers over chess.js for instant feedback in the browser: the positions of a game's
 * history, legal destinations of a piece, a move tried on the board or typed in SAN, check and
 * claimable draws. The server stays the judge: these only decide what to show and what to send.
 *
 * chess.js 1.x throws on an illegal move; every function here catches and returns null instead.
 */
import { Chess, type Move, type Square } from 'chess.js';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export type PromotionPiece = 'q' | 'r' | 'b' | 'n';

/** A move as played locally: what to send (uci) and what to show (san, fen). */
export interface LocalMove {
  uci: string;
  san: string;
  fen: string;
  from: string;
  to: string;
  capture: boolean;
  check: boolean;
}

/** A fresh game at this position (callers may play moves on it). */
function load(fen: string): Chess | null {
  try {
    return new Chess(fen);
  } catch {
    return null;
  }
}

// Positions are parsed again and again while a board renders (every piece asks whether it may
// be dragged, every square for its moves): keep the last few, for read-only questions only.
const recent = new Map<string, Chess | null>();
const RECENT_MAX = 16;

/** A shared game at this position, never to be changed. */
function peek(fen: string): Chess | null {
  let chess = recent.get(fen);
  if (chess === undefined) {
    chess = load(fen);
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
    recent.set(fen, chess);
  }
  return chess;
}

function toLocal(m: Move, after: Chess): LocalMove {
  return {
    uci: m.lan,
    san: m.san,
    fen: after.fen(),
    from: m.from,
    to: m.to,
    capture: m.isCapture() || m.isEnPassant(),
    check: after.inCheck(),
  };
}

/**
 * The position before each ply and after the last: result[0] is the initial FEN, result[i] the
 * position after ply i. Stops early (shorter result) if a move does not replay.
 */
export function replay(initialFen: string, uciMoves: readonly string[]): string[] {
  const chess = load(initialFen);
  if (!chess) return [initialFen];
  const fens = [chess.fen()];
  for (const uci of uciMoves) {
    try {
      chess.move(uciToObject(uci));
    } catch {
      break;
    }
    fens.push(chess.fen());
  }
  return fens;
}

function uciToObject(uci: string): { from: string; to: string; promotion?: string } {
  return {
    from: uci.slice(0, 2),
    to: uci.slice(2, 4),
    promotion: uci.length > 4 ? uci[4] : undefined,
  };
}

/** Plays a UCI move on a FEN; null when it is not legal there. */
export function playUci(fen: string, uci: string): LocalMove | null {
  const chess = load(fen);
  if (!chess) return null;
  try {
    const m = chess.move(uciToObject(uci));
    return toLocal(m, chess);
  } catch {
    return null;
  }
}

export interface Destination {
  to: string;
  capture: boolean;
}

/** Legal destinations of the piece on `square` (empty when none or not the side to move). */
export function legalDestinations(fen: string, square: string): Destination[] {
  const chess = peek(fen);
  if (!chess) return [];
  let moves: Move[];
  try {
    moves = chess.moves({ square: square as Square, verbose: true });
  } catch {
    return [];
  }
  const seen = new Map<string, Destination>();
  for (const m of moves) {
    if (!seen.has(m.to)) seen.set(m.to, { to: m.to, capture: m.isCapture() || m.isEnPassant() });
  }
  return [...seen.values()];
}

/** True when moving from -> to is a legal pawn promotion (the player must choose a piece). */
export function isPromotion(fen: string, from: string, to: string): boolean {
  const chess = peek(fen);
  if (!chess) return false;
  try {
    return chess
      .moves({ square: from as Square, verbose: true })
      .some((m) => m.to === to && m.isPromotion());
  } catch {
    return false;
  }
}

/** Tries from -> to (with a promotion piece when needed); null when illegal. */
export function tryMove(
  fen: string,
  from: string,
  to: string,
  promotion?: PromotionPiece,
): LocalMove | null {
  const chess = load(fen);
  if (!chess) return null;
  try {
    const m = chess.move({ from, to, promotion });
    return toLocal(m, chess);
  } catch {
    return null;
  }
}

/**
 * Reads a typed move: SAN as people write it (Nf3, exd5, O-O or 0-0, e8=Q or e8Q, with or
 * without +, #, !, ?), in any case (nf3, NF3, E4; "bc4" is the bishop's, "bxc3" a pawn's when a
 * pawn can take there, else the bishop's), or UCI (e2e4, e7e8q). Returns the move, or null when
 * it is not a legal move in this position.
 */
export function parseTypedMove(fen: string, text: string): LocalMove | null {
  const raw = text.trim();
  if (!raw) return null;
  const chess = load(fen);
  if (!chess) return null;
  const candidates = new Set<string>();
  const cleaned = raw.replace(/[!?]+$/, '').replace(/0/g, 'O');
  candidates.add(cleaned);
  // "e8Q" -> "e8=Q"; a lowercase piece letter after the square too.
  const promo = cleaned.match(/^([a-h]x?[a-h]?[18])([qrbnQRBN])([+#]?)$/);
  if (promo) candidates.add(`${promo[1]}=${promo[2].toUpperCase()}${promo[3]}`);
  // "nf3" -> "Nf3" (but never "b" pawn files: "bxc3" stays a pawn capture).
  if (/^[nrqk][a-h1-8x]/.test(cleaned)) candidates.add(cleaned[0].toUpperCase() + cleaned.slice(1));
  // Any case: squares in lower case, a leading piece letter and a promotion piece in upper
  // case ("NF3", "E4", "Exd5", "E8=q"); castling in upper case.
  const lower = cleaned.toLowerCase().replace(/=([qrbn])/, (_, p: string) => `=${p.toUpperCase()}`);
  if (/^o-o(-o)?[+#]?$/.test(lower)) candidates.add(lower.toUpperCase());
  if (!/^[KQRBN]/.test(cleaned)) candidates.add(lower); // a capital piece letter stays a piece
  if (/^[kqrbn][a-h1-8x]/.test(lower)) candidates.add(lower[0].toUpperCase() + lower.slice(1));
  for (const san of candidates) {
    try {
      const m = chess.move(san);
      return toLocal(m, chess);
    } catch {
      /* try the next reading */
    }
  }
  const uci = raw.toLowerCase().match(/^([a-h][1-8])([a-h][1-8])([qrbn])?$/);
  if (uci) return tryMove(fen, uci[1], uci[2], uci[3] as PromotionPiece | undefined);
  return null;
}

/** The square of the king in check in this position, or null. */
export function checkedKingSquare(fen: string): string | null {
  const chess = peek(fen);
  if (!chess || !chess.inCheck()) return null;
  const turn = chess.turn();
  const [square] = chess.findPiece({ type: 'k', color: turn });
  return square ?? null;
}

/** Whose move it is in a FEN. */
export function fenTurn(fen: string): 'white' | 'black' {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

/** The colour of the piece on a square ("white"/"black"), or null when empty. */
export function pieceColorAt(fen: string, square: string): 'white' | 'black' | null {
  const chess = peek(fen);
  const piece = chess?.get(square as Square);
  if (!piece) return null;
  return piece.color === 'w' ? 'white' : 'black';
}

/**
 * A draw the side to move may claim now from the positions of the game so far (fens[0] is the
 * start): "threefold_repetition", "fifty_moves" or null. The server checks the claim again.
 */
export function claimableDraw(fens: readonly string[]): 'threefold_repetition' | 'fifty_moves' | null {
  if (fens.length === 0) return null;
  const key = (fen: string) => fen.split(' ').slice(0, 4).join(' ');
  const current = fens[fens.length - 1];
  const k = key(current);
  let seen = 0;
  for (const f of fens) if (key(f) === k) seen++;
  if (seen >= 3) return 'threefold_repetition';
  const halfmoves = Number(current.split(' ')[4] ?? 0);
  if (halfmoves >= 100) return 'fifty_moves';
  return null;
}

/**
 * A FEN as typed (spaces trimmed; the move counters may be left out) in chess.js's form, or
 * null when chess.js cannot read it. The server checks it again (FEN_INVALID).
 */
export function normaliseFen(text: string): string | null {
  const fields = text.trim().split(/\s+/);
  if (fields.length === 4) fields.push('0', '1');
  return load(fields.join(' '))?.fen() ?? null;
}
