/*
 * The analysis board's address: /analysis?fen=<FEN>&moves=<uci,uci,...>&ply=<n>&color=<white|black>,
 * every part optional. The board opens on the FEN (default: the standard start) with the moves
 * as the main line, at ply n of it (default: its end), seen from `color`'s side (default: the
 * side to move at the start). Pages link here with analysisUrl; the page reads it with
 * treeFromSearch. Moves that are not UCI or not legal end the line there.
 */
import { fenTurn, normaliseFen, START_FEN } from '../../lib/chess';
import type { Color } from '../../net/protocol';
import { treeFrom, treeGo, treeLast, treeMainLine, treePlayUci, type MoveTree } from './tree';

/** The link to the analysis board with this start, these moves and this ply shown. */
export function analysisUrl(fen: string, moves: readonly string[] = [], ply?: number, color?: Color): string {
  const params = new URLSearchParams();
  if (fen !== START_FEN || moves.length === 0) params.set('fen', fen);
  if (moves.length) params.set('moves', moves.join(','));
  if (ply !== undefined && ply < moves.length) params.set('ply', String(Math.max(0, ply)));
  if (color) params.set('color', color);
  return `/analysis?${params.toString()}`;
}

/** The tree and the board's orientation an address asks for (`search`: its ?query). */
export function treeFromSearch(search: string): { tree: MoveTree; orientation: Color } {
  const params = new URLSearchParams(search);
  const asked = params.get('fen');
  const start = (asked && normaliseFen(asked)) || START_FEN;
  const moves = (params.get('moves') ?? '').split(',').filter((m) => /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(m));
  const played = treePlayUci(treeFrom(start), moves);
  let tree = treeLast(played);
  const ply = Number(params.get('ply') ?? NaN);
  if (Number.isInteger(ply) && ply >= 0) {
    tree = treeGo(tree, ply === 0 ? tree.root : (treeMainLine(tree)[ply - 1] ?? tree.current));
  }
  const color = params.get('color');
  const orientation: Color = color === 'white' || color === 'black' ? color : fenTurn(start);
  return { tree, orientation };
}
