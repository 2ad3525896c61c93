//! What the test player needs of card-duel, shared by `interactive.rs` and `package.rs`:
//! how a game opens, and a planted bug; and a right C++ player of its own (`perfect.cpp`).

/// How a game opens (the player's INTRO, judge's `testing::interactive`): O, the position's
/// four lines and our side; the query asks the one game of a one-case input.
pub(crate) const INTRO: &str = r#"
def intro(read):
    ops, lines, side = read(), [read() for _ in range(4)], read()
    return "1 " + ops + "\n" + "\n".join(lines) + "\n", 1, side
"#;

/// The planted bug: with 2 HP left each, E plays his worst action.
pub(crate) const BUG: &str = r"
def bug(a):
    e, teacher = a['position'].split('\n')[:2]
    return e.startswith('E: 2 HP') and teacher.startswith('the teacher: 2 HP')
";
