//! The interactive version end to end through the binary: `interact` and `stress
//! --interactive` against a player program (judge's `testing::interactive`) that asks its
//! moves of this process.

use card_duel::position::DuelGame;
use judge::testing::interactive::{QueryServer, check_interact, stress_planted};

const BINARY: &str = env!("CARGO_BIN_EXE_card-duel");

/// How a game opens (the player's INTRO, judge's `testing::interactive`): O, the position's
/// four lines and our side; the query asks the one game of a one-case input.
const INTRO: &str = r#"
def intro(read):
    ops, lines, side = read(), [read() for _ in range(4)], read()
    return "1 " + ops + "\n" + "\n".join(lines) + "\n", 1, side
"#;

/// The planted bug: with 2 HP left each, E plays his worst action.
const BUG: &str = r"
def bug(a):
    e, teacher = a['position'].split('\n')[:2]
    return e.startswith('E: 2 HP') and teacher.startswith('the teacher: 2 HP')
";

#[test]
fn stress_interactive_finds_a_player_that_misplays_one_rare_position_and_shrinks_it() {
    let dir = tests::scratch_dir("card-duel", "planted");
    let server = QueryServer::start(DuelGame::new(), &dir);
    let planted = stress_planted(BINARY, INTRO, &dir, &server, BUG, &["--time", "120s"]);
    println!("{}", planted.report);
    assert!(planted.report.contains("wrong answer: game "), "{}", planted.report);
}

#[test]
fn interact_passes_a_perfect_player_and_names_each_kind_of_failure() {
    let dir = tests::scratch_dir("card-duel", "interact");
    let server = QueryServer::start(DuelGame::new(), &dir);
    check_interact(BINARY, INTRO, &dir, &server);
}
