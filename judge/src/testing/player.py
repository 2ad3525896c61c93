#!/usr/bin/env python3
"""A player of any problem's interactive version (its statement's "Interactive version"),
for the judge's tests: every move the best of the query's answer (`PROBLEM query`), but where
a planted rule says otherwise, its worst move.

Usage: player.py INTRO ORACLE [BUG]
  INTRO   a Python file defining intro(read): reads a game's opening lines with read() and
          returns the input to query, the game's number in it and the player's side (each
          problem's tests give theirs)
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

intro_file, oracle = sys.argv[1], sys.argv[2]
rules = {"re": re}
for given in [intro_file] + sys.argv[3:4]:
    with open(given) as source:
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


def rank(value):
    """Best first: wins fastest, then the highest probability, then losses slowest."""
    far = 10**9 if value["remoteness"] is None else value["remoteness"]
    if value["kind"] == "win":
        return (0, far)
    if value["kind"] == "chance":
        return (1, -value["probability"])
    return (2, -far)


intro = rules["intro"]
for _ in range(int(read())):
    given, game, side = intro(read)
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
