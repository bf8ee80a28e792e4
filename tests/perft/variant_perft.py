#!/usr/bin/env python3
"""Writes the engine's perft suites for King of the Hill and Three-check from python-chess.

    variant_perft.py kingOfTheHill|threeCheck [MAX_NODES] > tests/unit/engine/data/VARIANT.epd

python-chess (Debian's python3-chess, or its source on PYTHONPATH) is the second implementation
the counts come from: its boards have no legal moves once the variant has ended (a king on the
centre, a third check), so its perft stops there, and so must the engine's. Each line is
"FEN ;D1 n ;D2 n ...", in three-check with python-chess's checks-remaining field, to the depth at
which the count stays within MAX_NODES (default 200000), at most depth 4.
"""
import sys

import chess
import chess.variant

POSITIONS = {
    "kingOfTheHill": [
        chess.STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        # Kings one step from the centre, with and without guards on it.
        "8/8/3k4/8/8/3K4/8/8 w - - 0 1",
        "8/8/3k4/8/8/3K4/8/8 b - - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/3K4/PPPP1PPP/RNBQ1BNR w kq - 2 3",
        "4k3/8/2n5/8/8/3K4/8/4R3 b - - 0 1",
        "8/8/2r5/8/1K6/8/8/6k1 w - - 0 1",
        "8/5k2/8/8/8/8/3R4/4K3 b - - 0 1",
        # Already over: a king on e5, and a king on d4 for the side to move.
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        "8/8/8/8/3K4/8/8/7k w - - 0 1",
    ],
    "threeCheck": [
        chess.variant.ThreeCheckBoard.starting_fen,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 1+1 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1 0 1",
        # One check left for one side or both.
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 1+3 0 3",
        "rnb1kbnr/pppp1ppp/8/4p3/4P2q/8/PPPP1PPP/RNBQKBNR w KQkq - 3+1 1 3",
        "4k3/8/8/8/8/8/8/4K2R w K - 1+1 0 1",
        "r3k3/8/8/8/8/8/3B4/4K3 b q - 2+1 0 1",
        "8/8/8/4k3/8/8/1N6/4K3 w - - 1+2 0 1",
        # Already over: white has given three checks.
        "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 0+3 1 3",
        "4k3/8/8/8/8/8/8/R3K3 b Q - 0+0 0 1",
    ],
}

BOARDS = {
    "kingOfTheHill": chess.variant.KingOfTheHillBoard,
    "threeCheck": chess.variant.ThreeCheckBoard,
}


def perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    count = 0
    for move in board.legal_moves:
        board.push(move)
        count += perft(board, depth - 1)
        board.pop()
    return count


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in POSITIONS:
        sys.exit("usage: variant_perft.py kingOfTheHill|threeCheck [MAX_NODES]")
    variant = sys.argv[1]
    max_nodes = int(sys.argv[2]) if len(sys.argv) == 3 else 200000
    print(f"# {variant} perft from python-chess {chess.__version__} (tests/perft/variant_perft.py)")
    for fen in POSITIONS[variant]:
        board = BOARDS[variant](fen)
        counts = []
        for depth in range(1, 5):
            nodes = perft(board, depth)
            counts.append(f"D{depth} {nodes}")
            if nodes == 0 or nodes * 30 > max_nodes:
                break
        print(f"{board.fen()} ;" + " ;".join(counts))


if __name__ == "__main__":
    main()
