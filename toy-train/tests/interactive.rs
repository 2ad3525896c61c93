//! The interactive version end to end through the binary: `interact` and `stress
//! --interactive` against a player program (judge's `testing::interactive`) that asks its
//! moves of this process.

use judge::testing::interactive::{QueryServer, check_interact, stress_planted};
use toy_train::position::TrainGame;

const BINARY: &str = env!("CARGO_BIN_EXE_toy-train");

/// How a game opens (the player's INTRO, judge's `testing::interactive`): the railway, the
/// start station and our side; the query asks the game of that station.
const INTRO: &str = r#"
def intro(read):
    head = read()
    lines = [head, read(), read()] + [read() for _ in range(int(head.split()[1]))]
    start, side = int(read()), read()
    return "\n".join(lines) + "\n", start + 1, side
"#;

/// The planted bug: at a charging station past the start, the player plays its worst move.
const BUG: &str = r"
def bug(a):
    walk, here = a['position'].split('\n')[:2]
    return walk.count('->') >= 1 and '*' in here
";

#[test]
fn stress_interactive_finds_a_player_that_misplays_one_rare_position_and_shrinks_it() {
    let dir = tests::scratch_dir("toy-train", "planted");
    let server = QueryServer::start(TrainGame::new(), &dir);
    let planted = stress_planted(BINARY, INTRO, &dir, &server, BUG, &["--time", "120s"]);
    println!("{}", planted.report);
    assert!(planted.report.contains("wrong answer: game "), "{}", planted.report);
}

#[test]
fn interact_passes_a_perfect_player_and_names_each_kind_of_failure() {
    let dir = tests::scratch_dir("toy-train", "interact");
    let server = QueryServer::start(TrainGame::new(), &dir);
    check_interact(BINARY, INTRO, &dir, &server);
}
