/*
 * A pasted PGN read into a move tree (tree.ts), variations included: the tag pairs, then the
 * movetext's moves (SAN as people write it, checked with chess.js through parseTypedMove),
 * move numbers, comments ({...} and ; to the end of the line, kept on the move before them),
 * NAGs and !?-suffixes (dropped), recursive variations in parentheses (an alternative to the
 * move before them) and the result, which ends the game (only the first game of a file is
 * read). Commands embedded in comments ([%clk ...], [%eval ...]) are left out. The start
 * position is the FEN tag's when there is one.
 *
 * chess.js's own loadPgn follows the main line only, hence this reader. Errors are sentences
 * for the player: the first illegal move (with its number), an unbalanced parenthesis, a FEN tag
 * the board cannot read, or nothing that looks like a game.
 */
import { normaliseFen, parseTypedMove, START_FEN } from '../../lib/chess';
import { treeComment, treeFrom, treeLast, treeNode, treePlay, type MoveTree } from './tree';

export type PgnResult = { tree: MoveTree; headers: Record<string, string> } | { error: string };

const HEADER = /^\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/;
const TOKEN = /\{[^}]*\}?|;[^\n]*|\$\d+|\(|\)|1-0|0-1|1\/2-1\/2|\*|\d+\s*\.+|[^\s(){};$]+/g;

/** Reads a PGN into a tree whose shown node is the main line's end; or says what is wrong. */
export function treeFromPgn(text: string): PgnResult {
  const headers: Record<string, string> = {};
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim() || line.startsWith('%')) continue;
    const m = line.match(HEADER);
    if (!m) break;
    headers[m[1]] = m[2].replace(/\\(["\\])/g, '$1');
  }
  const movetext = lines
    .slice(i)
    .filter((l) => !l.startsWith('%'))
    .join('\n');

  let start = START_FEN;
  if (headers.FEN !== undefined) {
    const fen = normaliseFen(headers.FEN);
    if (!fen) return { error: 'The PGN\'s FEN tag is not a position the board can read.' };
    start = fen;
  }

  let tree = treeFrom(start);
  // Where the next move is played from, and the node before the last move (a variation's start).
  let at = tree.root;
  let before: string | null = null;
  const stack: { at: string; before: string | null }[] = [];
  let moves = 0;
  for (const [token] of movetext.matchAll(TOKEN)) {
    if (token.startsWith('{') || token.startsWith(';')) {
      // Without the commands programs embed ("[%clk 0:03:00]", "[%eval 0.3]").
      const comment = token
        .replace(/^[{;]|\}$/g, '')
        .replace(/\[%[^\]]*\]/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      if (comment) {
        const old = treeNode(tree, at).comment;
        tree = treeComment(tree, at, old ? `${old} ${comment}` : comment);
      }
    } else if (token === '(') {
      if (before === null) return { error: 'A variation in the PGN has no move before it.' };
      stack.push({ at, before });
      at = before;
      before = null;
    } else if (token === ')') {
      const outer = stack.pop();
      if (!outer) return { error: 'The PGN closes a variation it never opened: a ")" too many.' };
      ({ at, before } = outer);
    } else if (/^(1-0|0-1|1\/2-1\/2|\*)$/.test(token)) {
      if (stack.length === 0) break; // the game's end: a second game after it is not read
    } else if (/^(\$\d+|\d+\s*\.+)$/.test(token) || /^[!?]+$/.test(token)) {
      // A NAG or a move number: nothing to play.
    } else {
      const san = token.replace(/[!?]+$/, '');
      const node = treeNode(tree, at);
      const move = parseTypedMove(node.fen, san);
      if (!move) {
        const number = node.fen.split(' ')[5] ?? '1';
        const side = node.fen.split(' ')[1] === 'b' ? 'Black' : 'White';
        return { error: `"${token}" is not a legal move for ${side} at move ${number}.` };
      }
      tree = treePlay(tree, move, at);
      before = at;
      at = tree.current;
      moves++;
    }
  }
  if (stack.length) return { error: 'The PGN opens a variation it never closes: a ")" is missing.' };
  if (moves === 0 && Object.keys(headers).length === 0) {
    return { error: 'There is no game in this text: no tag pairs and no moves.' };
  }
  tree = { ...tree, current: tree.root };
  return { tree: treeLast(tree), headers };
}
