//! A game in one file ([`judge::testing::subtraction`]) through every door a game has: a
//! person's `play`, the JSON `query`, `interact` and `stress --interactive` against players
//! written here, all through the generic exact valuer.

use clap::Parser;
use games::query::{Answerer, Query};
use games::session::{SessionOptions, play};
use games::{Game, Value};
use judge::cli::{EXIT_FOUND, EXIT_PASSED, JudgeCommand};
use judge::testing::TestDir;
use judge::testing::interactive::python;
use judge::testing::subtraction::{Pile, Side, Subtraction};
use judge::testing::toy::Sum;

/// The subcommands as a problem binary declares them.
#[derive(Debug, clap::Parser)]
enum Command {
    #[command(flatten)]
    Judge(JudgeCommand),
}

/// The exit code of `sum ARGS` with the subtraction game as the problem's game.
fn run(args: &[&str]) -> i32 {
    let Command::Judge(judge) =
        Command::try_parse_from(std::iter::once("sum").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    judge.run_with_game(&Sum, Subtraction::new)
}

/// A player of the interactive version: it takes `pile % (most + 1)` stones when that is
/// not 0 (the winning move), else one; the planted bug takes one stone from a pile of 5.
fn player(bug: bool) -> String {
    format!(
        r"import sys
def line():
    text = sys.stdin.readline()
    if not text:
        sys.exit(0)
    return text.strip()
for _ in range(int(line())):
    pile, most = map(int, line().split())
    side, mover = line(), 'first'
    while pile > 0:
        if mover == side:
            take = pile % (most + 1) or 1
            if {bug} and pile == 5:
                take = 1
            print(take, flush=True)
        else:
            take = int(line())
        pile -= take
        mover = 'second' if mover == 'first' else 'first'
    line()
",
        bug = if bug { "True" } else { "False" }
    )
}

#[test]
fn values_follow_the_rules_of_the_one_file() {
    let mut game = Subtraction::new();
    let starts = game.starts(&game.read(b"3\n7 3\n8 3\n1 1\n").unwrap());
    assert_eq!(starts[0], Pile { left: 7, most: 3, mover: Side::First });
    assert_eq!(game.program_side(&starts[0]), Side::First);
    assert_eq!(game.program_side(&starts[1]), Side::Second);
    // From 7 (take 1 to 3) the winner takes 3 and then answers 4 - k: 3 moves in all. Taking
    // 1 or 2 leaves the other player a win in 3 moves.
    let moves = game.valued_moves(&starts[0]);
    assert_eq!(moves, vec![(1, Value::lose(4)), (2, Value::lose(4)), (3, Value::win(3))]);
}

#[test]
fn a_person_plays_and_a_page_queries() {
    let mut game = Subtraction::new();
    let start = Pile { left: 7, most: 3, mover: Side::First };
    let mut out = Vec::new();
    // The person takes 3 (winning), then the 3 stones the solver leaves.
    let script = b"hint\n3\n3\n";
    let options = SessionOptions::default();
    play(&mut game, start, &options, &mut &script[..], &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("you play first") && out.contains("hint: 3 (win in 3)"), "{out}");
    assert!(out.contains("Game over: first wins; you win."), "{out}");

    let mut answerer = Answerer::new(game);
    let query = Query { input: Some("1\n7 3\n".to_owned()), game: 1, moves: vec!["3".into()] };
    let answer = answerer.answer(&query).unwrap();
    assert_eq!((answer.turn.as_str(), answer.moves.len()), ("second", 3));
    assert_eq!(answer.board["left"], 4);
    assert_eq!(answer.value.unwrap().kind, "lose");
    let bad = Query { moves: vec!["4".into()], ..query };
    let refused = answerer.answer(&bad).expect_err("the query is refused");
    assert!(refused.contains("a move takes 1 to 3 stones"), "{refused}");
}

/// A person's whole session: the transcript `play` writes for `script`.
fn session(side: Option<Side>, script: &str) -> String {
    let mut game = Subtraction::new();
    let start = Pile { left: 7, most: 3, mover: Side::First };
    let options = SessionOptions { side, ..SessionOptions::default() };
    let mut out = Vec::new();
    play(&mut game, start, &options, &mut script.as_bytes(), &mut out).expect("a session ends");
    String::from_utf8(out).expect("a session writes text")
}

/// What a person reads, as data: the moves listed under letters, picked by letter or typed
/// (toy-train's test pins that a number is a station, not an item); `undo` back to the start
/// and no further; lines that are neither; and the losing side played to its end against
/// perfect play.
#[test]
fn snapshot_a_person_plays_either_side() {
    let winning = session(None, "help\nhint\nc\nundo\nundo\n2\nzz\n0\nquit\n");
    insta::assert_snapshot!("play_the_winning_side", winning);
    let losing = session(Some(Side::Second), "hint\na\nb\n");
    insta::assert_snapshot!("play_the_losing_side", losing);
    assert!(losing.contains("Game over: first wins; you lose."), "{losing}");
}

#[test]
fn interact_and_stress_judge_players_of_the_one_file() {
    let dir = TestDir::new("subtraction");
    let (right, wrong) = (dir.join("right.py"), dir.join("wrong.py"));
    std::fs::write(&right, player(false)).unwrap();
    std::fs::write(&wrong, player(true)).unwrap();
    let (right, wrong) = (right.display().to_string(), wrong.display().to_string());
    let python = python();
    let save = dir.join("transcript.txt").display().to_string();

    assert_eq!(run(&["interact", "--save", &save, "--", &python, "-S", &right]), EXIT_PASSED);
    // 5 stones, take 1 or 2: the player, first, must take 2; its bug takes 1.
    let file = dir.join("five.in");
    std::fs::write(&file, "1\n5 2\n").unwrap();
    let file = file.display().to_string();
    let code = run(&["interact", &file, "--save", &save, "--", &python, "-S", &wrong]);
    assert_eq!(code, EXIT_FOUND);
    // A source file as COMMAND is built as stress builds it, so a report's `run it again`
    // line (`... -- wrong.py`) runs as printed.
    let saved = dir.join("built.txt").display().to_string();
    assert_eq!(run(&["interact", &file, "--save", &saved, "--", &wrong]), EXIT_FOUND);
    assert!(std::fs::read_to_string(&saved).unwrap().starts_with("> 1\n> 5 2\n"));
    assert!(std::fs::read_to_string(&save).unwrap().starts_with("> 1\n> 5 2\n> first\n< 1\n"));

    let input = dir.join("shrunk.in").display().to_string();
    let stress = ["stress", "--interactive", "--seed", "1", "-j", "2", "--save", &input];
    let found = run(&[&stress[..], &["--", &python, "-S", &wrong]].concat());
    assert_eq!(found, EXIT_FOUND);
    let shrunk = std::fs::read_to_string(&input).unwrap();
    assert_eq!(shrunk.lines().count(), 2, "one case: {shrunk}");
    let passed = run(&[&stress[..], &["--runs", "20", "--", &python, "-S", &right]].concat());
    assert_eq!(passed, EXIT_PASSED);
}
