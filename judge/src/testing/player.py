#!/usr/bin/env python3
"""A player of the interactive version of hero-battle, toy-train or card-duel (each
statement's "Interactive version"), for the judge's tests: every move the best of the query's
answer (`PROBLEM query`), but where a planted rule says otherwise, its worst move.

Usage: player.py PROBLEM ORACLE [BUG]
  ORACLE  unix:PATH, a server of PROBLEM query's JSON lines, or a command to start one
          (`hero-battle query`)
  BUG     a Python file defining bug(a), true at the positions (a: the query's answer) where
          the player plays its worst move
"""

import json
import re
import socket
import subprocess
import sys

problem, oracle = sys.argv[1], sys.argv[2]
rules = {"re": re}
if len(sys.argv) > 3:
    with open(sys.argv[3]) as source:
        exec(source.read(), rules)
bug = rules.get("bug", lambda a: False)

if oracle.startswith("unix:"):
    connection = socket.socket(socket.AF_UNIX)
    connection.connect(oracle[len("unix:"):])
    ask_to, ask_from = connection.makefile("w"), connection.makefile("r")
else:
    server = subprocess.Popen(oracle.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ask_to, ask_from = server.stdin, server.stdout


def ask(query):
    ask_to.write(json.dumps(query) + "\n")
    ask_to.flush()
    return json.loads(ask_from.readline())


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.strip()


def intro():
    """The game's opening lines: the input to query, the game's number in it, our side."""
    if problem == "hero-battle":
        case, first, side = read(), read(), read()
        return "1\n" + case + "\n", 1 if first == "Alice" else 2, side
    if problem == "toy-train":
        head = read()
        lines = [head, read(), read()] + [read() for _ in range(int(head.split()[1]))]
        start, side = int(read()), read()
        return "\n".join(lines) + "\n", start + 1, side
    if problem == "card-duel":
        ops, lines, side = read(), [read() for _ in range(4)], read()
        return "1 " + ops + "\n" + "\n".join(lines) + "\n", 1, side
    sys.exit("unknown problem " + problem)


def rank(value):
    """Best first: wins fastest, then the highest probability, then losses slowest."""
    far = 10**9 if value["remoteness"] is None else value["remoteness"]
    if value["kind"] == "win":
        return (0, far)
    if value["kind"] == "chance":
        return (1, -value["probability"])
    return (2, -far)


for _ in range(int(read())):
    given, game, side = intro()
    query = {"input": given, "game": game, "moves": []}
    while True:
        answer = ask(query)
        if answer["turn"] == side:
            moves = sorted(answer["moves"], key=lambda m: rank(m["value"]))
            move = (moves[-1] if bug(answer) else moves[0])["move"]
            print(move, flush=True)
            query["moves"].append(move)
            continue
        line = read()
        if line in ("win", "lose"):
            break
        query["moves"].append(line)
