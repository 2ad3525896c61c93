//! What the test player needs of toy-train, shared by `interactive.rs` and `package.rs`:
//! how a game opens, and a planted bug; and a right C++ player of its own (`perfect.cpp`).

/// How a game opens (the player's INTRO, judge's `testing::interactive`): the railway, the
/// start station and our side; the query asks the game of that station.
pub(crate) const INTRO: &str = r#"
def intro(read):
    head = read()
    lines = [head, read(), read()] + [read() for _ in range(int(head.split()[1]))]
    start, side = int(read()), read()
    return "\n".join(lines) + "\n", start + 1, side
"#;

/// The planted bug: at a charging station past the start, the player plays its worst move.
pub(crate) const BUG: &str = r"
def bug(a):
    walk, here = a['position'].split('\n')[:2]
    return walk.count('->') >= 1 and '*' in here
";
