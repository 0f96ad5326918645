"""Drives `shashki hub` with pydraughts' HubEngine, the Hub client that lidraughts-bot
uses, through whole Russian games. pydraughts' own board checks every move the engine
sends, so a move in a wrong format or numbering, an illegal move or a protocol fault fails
the run.

    python tests/hub/pydraughts_games.py PATH/TO/shashki

Games start from several openings and from set-up positions, and are played at a depth,
a node count, a time per move and under a clock (the script keeps both clocks and fails
if one runs out), and with pondering: after each move the engine ponders on the reply it
expects, and gets `ponder-hit` when it comes, `stop` otherwise.
"""

import sys
import threading
import time

import draughts
from draughts.engine import HubEngine, Limit

# A game is drawn after this many plies if nothing ends it before (pydraughts knows only
# some of the FSR draw rules).
PLY_CAP = 160

OPENINGS = [
    [],
    ["c3-d4", "f6-g5"],
    ["c3-b4", "b6-a5", "g3-f4"],
    ["e3-f4", "f6-e5", "g3-h4"],
]

SETUPS = [
    # Kings and men, middlegame-like.
    "W:WKa1,c3,e3,g3,b2:Bb6,d6,f8,h6,Kh8",
    # Three kings against one (Petrov's triangle).
    "W:WKc1,Ke1,Kg1:BKh8",
    # A man race with captures around.
    "B:Wa3,c3,e3,h4,f2:Bb6,d6,g7,h8,a7",
]


def start_engine(binary):
    engine = HubEngine([binary, "hub"])
    assert "variant" in engine.options, engine.options
    assert "russian" in engine.variants, engine.variants
    assert engine.id.get("name") == "Shashki", engine.id
    engine.configure({"variant": "russian", "threads": "1", "hash": "16"})
    engine.init()
    engine.ping()
    return engine


def legal(board, move):
    return any(m.board_move == move.board_move for m in board.legal_moves())


class Pondering:
    """A `go ponder` search running in its own thread (pydraughts blocks until `done`)."""

    def __init__(self, engine, board, expected, limit):
        self.engine = engine
        self.expected = expected
        self.result = None
        after = board.copy()
        after.push(expected)
        self.thread = threading.Thread(target=self._run, args=(after, limit))
        self.thread.start()

    def _run(self, board, limit):
        self.result = self.engine.play(board, limit, ponder=True)

    def resolve(self, played):
        """The opponent played `played`: a hit returns the engine's move, a miss None."""
        if played.pdn_move == self.expected.pdn_move:
            self.engine.ponderhit()
            self.thread.join()
            return self.result
        self.engine.stop()
        self.thread.join()
        return None


def play_game(engines, board, limit_for, ponder=False, clock=None):
    """Plays a game; returns (plies, result text, ponder hits)."""
    clocks = None if clock is None else [clock[0], clock[0]]
    hits = 0
    pondering = [None, None]
    while not board.is_over() and len(board.move_stack) < PLY_CAP:
        side = 0 if board.turn == draughts.WHITE else 1
        engine = engines[side]
        limit = limit_for(clocks[side] if clocks else None, clock[1] if clock else None)
        t = time.monotonic()
        result = None
        other = pondering[side]
        pondering[side] = None
        if other is not None and board.move_stack:
            result = other.resolve(board.move_stack[-1])
            hits += result is not None
        if result is None:
            result = engine.play(board, limit, ponder=False)
        used = time.monotonic() - t
        move = result.move
        assert move is not None, "no move"
        assert legal(board, move), f"illegal move {move.pdn_move} in {board.fen}"
        assert "score" in result.info and "depth" in result.info, result.info
        if clocks is not None:
            clocks[side] -= used
            assert clocks[side] > 0, f"side {side} lost on time at ply {len(board.move_stack)}"
            clocks[side] += clock[1]
        board.push(move)
        if ponder and result.ponder is not None and not board.is_over():
            after = board.copy()
            after.push(result.ponder)
            # The client never asks for a move in a finished game, pondering included.
            if not after.is_over():
                pondering[side] = Pondering(engine, board, result.ponder, limit)
    for p in pondering:
        if p is not None:
            p.engine.stop()
            p.thread.join()
    return len(board.move_stack), board.winner(), hits


def main():
    binary = sys.argv[1]
    engines = [start_engine(binary), start_engine(binary)]
    limits = [
        ("depth 5", lambda c, i: Limit(depth=5), None),
        ("nodes 20000", lambda c, i: Limit(nodes=20000), None),
        ("move-time 0.05 s", lambda c, i: Limit(movetime=0.05), None),
        ("clock 8+0.05", lambda c, i: Limit(time=c, inc=i), (8.0, 0.05)),
    ]
    games = 0
    for name, limit_for, clock in limits:
        starts = [("opening " + " ".join(o) if o else "start", None, o) for o in OPENINGS]
        starts += [("set-up " + fen, fen, []) for fen in SETUPS]
        for label, fen, opening in starts:
            board = draughts.Board(variant="russian", fen=fen or "startpos")
            for text in opening:
                board.push(draughts.Move(board, pdn_move=text))
            for e in engines:
                e.send("new-game")
            plies, winner, _ = play_game(engines, board, limit_for, clock=clock)
            games += 1
            print(f"{name}, {label}: {plies} plies, winner {winner}", flush=True)
    # Pondering, at a time per move and under a clock.
    hits = 0
    for name, limit_for, clock in [limits[2], limits[3]]:
        for opening in OPENINGS[:2]:
            board = draughts.Board(variant="russian")
            for text in opening:
                board.push(draughts.Move(board, pdn_move=text))
            plies, winner, h = play_game(engines, board, limit_for, ponder=True, clock=clock)
            hits += h
            games += 1
            print(f"ponder, {name}: {plies} plies, winner {winner}, {h} ponder hits", flush=True)
    assert hits > 0, "pondering never hit"
    for e in engines:
        e.quit()
        e.p.wait(timeout=5)
    print(f"hub: {games} games through pydraughts, every move legal")


if __name__ == "__main__":
    main()
