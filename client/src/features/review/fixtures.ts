/*
 * Analyses as the server sends them, for the tests: the game 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6
 * 4. Qxf7# analysed at 50,000 nodes a position (3... Nf6 is a blunder), done and under way.
 */
import type { GameAnalysis } from '../../net/protocol';

export const SCHOLAR_SAN = ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#'];

export const SCHOLAR_FENS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
  'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
  'rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2',
  'r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3',
  'r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3',
  'r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4',
  'r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4'
];

export const SCHOLAR: GameAnalysis = {
  state: 'done',
  positions: 8,
  searched: 8,
  nodes: 50000,
  plies: [
    {ply: 0, win: 51.56437324214209, cp: 17, depth: 14, best: 'e2e4', line: ['e4', 'e6', 'Nc3', 'd5', 'exd5', 'exd5', 'Nf3', 'Nc6', 'd4', 'Nf6', 'Bd3', 'Be7', 'O-O']},
    {ply: 1, win: 53.03398401818215, cp: 33, depth: 13, best: 'c7c5', line: ['c5', 'Nf3', 'Nc6', 'Bb5', 'g6', 'O-O', 'Bg7', 'Nc3', 'a6', 'Bxc6', 'dxc6']},
    {ply: 2, win: 50.644328329952096, cp: 7, depth: 13, best: 'g1f3', line: ['Nf3', 'Nc6', 'Bc4', 'Nf6', 'd3', 'Bc5', 'O-O', 'O-O', 'Be3', 'Bxe3']},
    {ply: 3, win: 47.51664103476072, cp: -27, depth: 14, best: 'b8c6', line: ['Nc6', 'Bc4', 'g6', 'Qe2', 'Nd4', 'Qd1', 'd5', 'Bxd5', 'Nf6', 'Nc3', 'Bg4', 'f3', 'Nxd5', 'Nxd5', 'Be6']},
    {ply: 4, win: 47.7921885909709, cp: -24, depth: 14, best: 'f1c4', line: ['Bc4', 'g6', 'Qe2', 'Nd4', 'Qd3', 'Qg5', 'g3', 'd5', 'exd5', 'Nf6', 'Nf3', 'Nxf3+', 'Qxf3']},
    {ply: 5, win: 47.42482461063748, cp: -28, depth: 14, best: 'g7g6', line: ['g6', 'Qd1', 'Bg7', 'Nc3', 'Nf6', 'a3', 'O-O', 'd3', 'a6', 'Ba2', 'd6', 'Nf3']},
    {ply: 6, win: 97.54474363414323, mate: 1, depth: 120, best: 'h5f7', line: ['Qxf7#'], judgement: 'blunder', better: 'g6'},
    {ply: 7, win: 97.54474363414323},
  ],
  accuracy: {
    white: {accuracy: 95.33129897733265, acpl: 10, inaccuracies: 0, mistakes: 0, blunders: 0},
    black: {accuracy: 22.268813606810806, acpl: 344, inaccuracies: 0, mistakes: 0, blunders: 1},
  },
};

export const SCHOLAR_RUNNING: GameAnalysis = { state: 'running', positions: 8, searched: 3, nodes: 50000, plies: SCHOLAR.plies.slice(0, 3) };
