#!/usr/bin/env python3
"""The page of `PROBLEM serve` in headless Chromium, for the judge's tests (testing::page).

Usage: page_check.py URL CHROMIUM CHECKS SCREENSHOT
  CHECKS      a Python file defining check(page): the problem's own checks, given this
              file's Page (open a state, read the moves, click, wait), expect(condition,
              message) and SCREENSHOT (the checks may take a better one)
  SCREENSHOT  where the page of a game in progress is saved (PNG)

The framework's checks, on any problem: the URL fragment opens a position; every move is
listed with the server's value, best first, win green and lose red; a click plays a move and
the browser's back button undoes it; the keys 1-9 play and u undoes; perfect play answers a
person's move; a narrow window needs no sideways scroll; no request leaves the server.
Prints what it checked; exits 1 with FAIL: on the first failure.
"""

import json
import sys
import urllib.parse

from playwright.sync_api import sync_playwright

URL, CHROMIUM, CHECKS, SCREENSHOT = sys.argv[1:5]
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic"]


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


class Page:
    """The page with the helpers the checks use."""

    def __init__(self, page):
        self.page = page

    def open(self, moves=(), side=None, game=1, seed=None, input=None):
        """Opens the state the fragment names, without a click, and waits for it drawn."""
        params = {"game": str(game), "moves": json.dumps(list(moves))}
        if input is not None:
            params["input"] = input
        if side:
            params["side"] = side
        if seed:
            params["seed"] = str(seed)
        self.page.goto(URL + "#" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote))
        self.page.reload()
        self.settle()

    def settle(self, moves=None):
        """Waits until the page rests at the position of its fragment, with no query or move of
        its own pending and its chart drawn (and at `moves` moves, if given)."""
        self.page.wait_for_function("""() => {
            const s = document.getElementById('status');
            const n = JSON.parse(new URLSearchParams(location.hash.slice(1)).get('moves') || '[]').length;
            return s && s.textContent.length > 0 && document.body.dataset.rest === String(n)
                && document.getElementById('chart').dataset.points === String(n + 1);
        }""", timeout=120000)
        if moves is not None:
            self.page.wait_for_function(
                "n => JSON.parse(new URLSearchParams(location.hash.slice(1)).get('moves')).length === n",
                arg=moves)
        self.page.wait_for_timeout(150)

    def my_turn(self):
        """Waits until the person is to move or the game is over (perfect play moved)."""
        self.page.wait_for_function("""() => {
            const s = document.getElementById('status').textContent;
            return s.includes('(you)') || s.startsWith('game over');
        }""", timeout=120000)
        self.settle()

    def state(self):
        return self.page.evaluate("""() => {
            const p = new URLSearchParams(location.hash.slice(1));
            return {moves: JSON.parse(p.get('moves') || '[]'), side: p.get('side'), game: p.get('game'),
                    input: p.get('input')};
        }""")

    def moves(self):
        """The listed moves: text, kind, value text, colour (r, g, b), whether clickable."""
        return self.page.evaluate("""() => [...document.querySelectorAll('#moves button.move:not(.chance)')].map(b => {
            const c = getComputedStyle(b).backgroundColor.match(/\\d+/g).map(Number);
            return {move: b.dataset.move, kind: b.dataset.kind, worth: b.querySelector('.worth').textContent,
                    rgb: c.slice(0, 3), enabled: !b.disabled};
        })""")

    def answer(self, moves=(), game=1, input=None):
        """The server's answer for a position, asked from the page."""
        return self.page.evaluate("""async ([moves, game, input]) => {
            if (input === null) input = (await (await fetch('api/input')).json()).input;
            const r = await fetch('api/query', {method: 'POST', body: JSON.stringify({input, game, moves})});
            return await r.json();
        }""", [list(moves), game, input])

    def click(self, move):
        self.page.click(f'#moves button.move[data-move="{move}"]')

    def status(self):
        return self.page.text_content("#status")


def rank(worth, kind):
    if kind == "chance":
        return (1, -float(worth))
    words = worth.split()
    far = int(words[-1]) if words[-1].isdigit() else 10**9
    return (0, far) if kind == "win" else (2, -far)


def check_moves_listed(page):
    listed = page.moves()
    state = page.state()
    answer = page.answer(state["moves"], int(state["game"]), state["input"])
    expect(answer["turn"] in ("over", "chance") or listed, "the moves are listed")
    served = {m["move"]: m["value"] for m in answer["moves"]}
    expect(sorted(m["move"] for m in listed) == sorted(served), f"the listed moves are the server's: {listed} {served}")
    for m in listed:
        value = served[m["move"]]
        expect(m["kind"] == value["kind"], f"{m['move']}: kind {m['kind']} is the server's {value['kind']}")
        r, g, b = m["rgb"]
        if m["kind"] == "win":
            expect(g > r, f"a win is green: {m}")
        elif m["kind"] == "lose":
            expect(r > g, f"a loss is red: {m}")
    ranks = [rank(m["worth"], m["kind"]) for m in listed]
    expect(ranks == sorted(ranks), f"best first: {[m['worth'] for m in listed]}")
    return listed


def main():
    requests = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        # A machine busy with other tests answers slowly: patience, not a verdict.
        context.set_default_timeout(120000)
        tab = context.new_page()
        origin = URL.rstrip("/")
        tab.on("request", lambda r: None if r.url.startswith(origin) else requests.append(r.url))
        errors = []
        tab.on("pageerror", lambda e: errors.append(str(e)))
        page = Page(tab)

        # The start, both sides the person's: the moves with their values and colours.
        page.open(side="both")
        listed = check_moves_listed(page)
        expect(listed, "the start has moves")
        print(f"start: {len(listed)} moves listed with the server's values, best first")

        # A click plays; the back button undoes; the keys play and undo.
        first = listed[0]["move"]
        page.click(first)
        page.settle(moves=1)
        expect(page.state()["moves"] == [first], f"the click played {first}: {page.state()}")
        tab.go_back()
        page.settle(moves=0)
        expect(page.state()["moves"] == [], "back undid the move")
        tab.keyboard.press("1")
        page.settle(moves=1)
        tab.keyboard.press("u")
        page.settle(moves=0)
        print("a click and the key 1 played; back and u undid")

        # Against perfect play: the person's best move is answered.
        page.open()
        page.my_turn()
        side = page.state()["side"] or page.answer()["side"]
        played = 0
        for _ in range(3):
            listed = [m for m in page.moves() if m["enabled"]]
            if not listed:
                break
            before = len(page.state()["moves"])
            page.click(listed[0]["move"])
            tab.wait_for_function(f"""() => {{
                const s = document.getElementById('status').textContent;
                const n = JSON.parse(new URLSearchParams(location.hash.slice(1)).get('moves')).length;
                return n > {before} && (s.includes('(you)') || s.startsWith('game over'));
            }}""", timeout=120000)
            page.settle()
            played += 1
            check_moves_listed(page)
        expect(played > 0, "the person played")
        expect("you lose" not in page.status(), f"best play does not lose: {page.status()}")
        print(f"played {played} best moves as {side}; perfect play answered each")
        tab.screenshot(path=SCREENSHOT)

        # A narrow window scrolls only the board, never the page sideways.
        tab.set_viewport_size({"width": 380, "height": 800})
        page.settle()
        wide = tab.evaluate("() => document.documentElement.scrollWidth")
        expect(wide <= 382, f"a narrow window needs no sideways scroll: {wide}px")
        tab.set_viewport_size({"width": 1200, "height": 900})
        print("a 380-pixel window needs no sideways scroll")

        rules = {"Page": Page, "expect": expect, "check_moves_listed": check_moves_listed,
                 "SCREENSHOT": SCREENSHOT}
        with open(CHECKS) as source:
            exec(source.read(), rules)
        rules["check"](page)
        expect(not errors, f"the page's script failed: {errors}")
        expect(not requests, f"requests left the server: {requests}")
        print("no request left the server; no script error")
        browser.close()


main()
