//! What the test player needs of hero-battle, shared by `interactive.rs` and `package.rs`:
//! how a game opens, and a planted bug; and a right C++ player of its own (`perfect.cpp`).

/// How a game opens (the player's INTRO, judge's `testing::interactive`): the case's line,
/// who moves first and our side; the query asks game 1 or 2 of a one-case input.
pub(crate) const INTRO: &str = r#"
def intro(read):
    case, first, side = read(), read(), read()
    return "1\n" + case + "\n", 1 if first == "Alice" else 2, side
"#;

/// The planted bug: with the enemy's heroes both at 3 hit points and its own at 1 and 2, the
/// player plays its worst move.
pub(crate) const BUG: &str = r"
def bug(a):
    hp = dict(re.findall(r'([AB][12]) +(\d+) HP', a['position']))
    enemy, own = ('B', 'A') if a['turn'] == 'Alice' else ('A', 'B')
    mine = sorted([hp[own + '1'], hp[own + '2']])
    return hp[enemy + '1'] == hp[enemy + '2'] == '3' and mine == ['1', '2']
";
