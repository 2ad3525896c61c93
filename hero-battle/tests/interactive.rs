//! The interactive version end to end in process: the jury (judge::jury::Jury) against
//! scripted players, `play` over a pipe and through a pseudo-terminal, and `query`.

use games::{Game, MoveError, Notation, Value, best};
use hero_battle::position::{HeroGame, Oracle, Position};
use judge::jury::{Jury, Reply, Verdict};
use judge::testing::interactive::{QueryServer, check_interact, stress_planted};

mod player;
use player::{BUG, INTRO};

/// Random cases of hit points up to `hp` and damage up to 4, as an input file.
fn input(seed: u64, cases: usize, hp: u64) -> Vec<u8> {
    let mut rng = engine::rng::SplitMix64::new(seed);
    let mut text = format!("{cases}\n");
    for _ in 0..cases {
        let numbers: Vec<String> =
            (0..12).map(|i| rng.range(1, if i < 4 { hp } else { 4 }).to_string()).collect();
        text.push_str(&numbers.join(" "));
        text.push('\n');
    }
    text.into_bytes()
}

/// Plays `input`'s games with `player` choosing each line at the position the jury waits on.
fn interact(input: &[u8], mut player: impl FnMut(&Position) -> String) -> (Verdict, usize) {
    let mut game = HeroGame::new();
    let cases = game.read(input).expect("a valid input");
    let starts = game.starts(&cases);
    let mut jury = Jury::new(game, starts, 1);
    let mut reply = jury.open();
    loop {
        match reply {
            Reply::Send(_) => {
                let line = player(jury.position().expect("the jury waits for a move"));
                reply = jury.receive(&line);
            }
            Reply::End(_, verdict) => return (verdict, jury.transcript().len()),
        }
    }
}

/// The best move's line, by an oracle of the player's own.
fn perfect(oracle: &mut Oracle, game: &HeroGame, p: &Position) -> String {
    let (mv, _) = best(&oracle.moves(p)).expect("a live position has a move");
    game.write_move(p, &mv)
}

#[test]
fn a_perfect_player_wins_every_game() {
    let input = input(7, 40, 30);
    let (mut oracle, game) = (Oracle::new(), HeroGame::new());
    let (verdict, lines) = interact(&input, |p| perfect(&mut oracle, &game, p));
    assert_eq!(verdict, Verdict::Accepted { games: 80 });
    assert!(lines > 500, "{lines} lines");
}

#[test]
fn a_player_that_misplays_one_rare_position_loses_and_the_verdict_names_the_move() {
    let input = input(8, 40, 30);
    let (mut oracle, game) = (Oracle::new(), HeroGame::new());
    // The bug: with equal hit points on both of the enemy's heroes, above 5, the player
    // plays its worst move.
    let mut planted = None;
    let (verdict, _) = interact(&input, |p| {
        let enemy =
            if p.mover == hero_battle::Player::Alice { p.case.bob_hp } else { p.case.alice_hp };
        let moves = oracle.moves(p);
        if enemy[0] == enemy[1]
            && enemy[0] > 5
            && let Some((mv, v)) = moves.iter().find(|(_, v)| matches!(v, Value::Lose { .. }))
        {
            let line = game.write_move(p, mv);
            planted.get_or_insert((line.clone(), *v));
            return line;
        }
        perfect(&mut oracle, &game, p)
    });
    let (line, value) = planted.expect("the rare position came up");
    match verdict {
        Verdict::WrongMove { line: named, value: worth, best, .. } => {
            assert_eq!((named, worth), (line, value));
            assert!(matches!(best.1, Value::Win { .. }));
        }
        other => panic!("expected a wrong move, got {other:?}"),
    }
}

#[test]
fn malformed_and_illegal_moves_and_early_ends_are_named() {
    let input = b"1\n10 10 10 10 3 3 3 3 3 3 3 3\n";
    let (verdict, _) = interact(input, |_| "1 x".to_owned());
    assert!(matches!(verdict, Verdict::BadMove { error: MoveError::Malformed(_), .. }));
    // The board's notation is for a person (`play`, `query`): the protocol keeps one form.
    let (verdict, _) = interact(input, |_| "A1->B1, A2->B1".to_owned());
    assert!(matches!(verdict, Verdict::BadMove { error: MoveError::Malformed(_), .. }));
    let (verdict, _) = interact(input, |_| "0 1".to_owned());
    assert!(matches!(verdict, Verdict::BadMove { error: MoveError::Illegal(_), .. }));
    let mut game = HeroGame::new();
    let starts = game.starts(&game.read(input).unwrap());
    let mut jury = Jury::new(game, starts, 1);
    let Reply::Send(lines) = jury.open() else { panic!("the jury waits") };
    assert_eq!(lines[..4], ["2", "10 10 10 10 3 3 3 3 3 3 3 3", "Alice", "Alice"]);
    assert!(matches!(jury.close(), Reply::End(_, Verdict::ProtocolError { .. })));
}

const PLAY: &str = env!("CARGO_BIN_EXE_hero-battle");

#[test]
fn play_over_a_pipe_and_a_pseudo_terminal() {
    let dir = tests::scratch_dir("hero-battle", "play");
    let file = dir.join("case.in");
    std::fs::write(&file, "1\n5 5 30 30 7 2 2 7 1 1 1 1\n").unwrap();
    // The first move as the board writes it, then the first listed move by its letter; `9`
    // is neither a move nor a letter.
    let script = "hint\nundo\n9\nb1->a1 B2->A1\na\na\na\na\na\na\na\na\n";
    let ran = tests::run_binary(PLAY, &["play", file.to_str().unwrap()], script.as_bytes());
    let out = String::from_utf8(ran.stdout).unwrap();
    assert!(ran.status.success(), "{out}");
    assert!(out.contains("you play Bob") && out.contains("hint: B"), "{out}");
    assert!(out.contains("  a. B1->A1, B2->A1 [1 1]: win in "), "{out}");
    assert!(out.contains("malformed move: expected two targets"), "{out}");
    assert!(out.contains("Alice plays A1->B"), "the jury's moves as the board writes them: {out}");
    assert!(out.contains("nothing to undo") && out.contains("Game over: Bob wins; you win."));
    // The losing side, against perfect play: it loses, as slowly as it can.
    let args = ["play", "--side", "alice", file.to_str().unwrap()];
    let ran = tests::run_binary(PLAY, &args, "a\n".repeat(20).as_bytes());
    let out = String::from_utf8(ran.stdout).unwrap();
    assert!(out.contains("you play Alice") && out.contains(": lose in "), "{out}");
    assert!(out.contains("Game over: Bob wins; you lose."), "{out}");
    let ran = tests::run_binary(PLAY, &["play", "--side", "carol"], b"");
    let err = String::from_utf8(ran.stderr).unwrap();
    assert_eq!(ran.status.code(), Some(2), "{err}");
    assert_eq!(err, "error: --side: no player \"carol\": the players are Alice and Bob\n");
    // The same through a real terminal: script(1) gives the program a pseudo-terminal.
    let command = format!("{PLAY} play {}", file.display());
    let ran = tests::run_binary("script", &["-qec", &command, "/dev/null"], script.as_bytes());
    let out = String::from_utf8_lossy(&ran.stdout);
    assert!(out.contains("Game over: Bob wins; you win."), "{out}");
}

#[test]
fn query_answers_json() {
    let query = br#"{"input": "1\n10 10 10 10 3 3 3 3 3 3 3 3\n", "game": 1, "moves": ["1 1"]}"#;
    let ran = tests::run_binary(PLAY, &["query"], query);
    let answer: serde_json::Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(answer["turn"], "Bob");
    assert_eq!(answer["moves"].as_array().unwrap().len(), 4);
    assert_eq!(
        (&answer["moves"][1]["move"], &answer["moves"][1]["shown"]),
        (&"1 2".into(), &"B1->A1, B2->A2".into())
    );
    // A move as the board writes it names the same position.
    let board = br#"{"input": "1\n10 10 10 10 3 3 3 3 3 3 3 3\n", "moves": ["A1->B1, A2->B1"]}"#;
    let ran = tests::run_binary(PLAY, &["query"], board);
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&ran.stdout).unwrap(), answer);
    assert_eq!(answer["value"]["kind"], "lose");
    // A bad query gets an error line, and the next query is answered.
    let ran = tests::run_binary(PLAY, &["query"], b"{\"moves\": [\"3 3\"]}\n{\"game\": 2}\n");
    let out = String::from_utf8(ran.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(ran.status.code(), Some(0), "{out}");
    assert!(lines[0].starts_with(r#"{"error":"move 1: malformed move"#), "{out}");
    assert!(lines[1].contains(r#""game":2"#), "{out}");
}

#[test]
fn stress_interactive_finds_a_player_that_misplays_one_rare_position_and_shrinks_it() {
    let dir = tests::scratch_dir("hero-battle", "planted");
    let server = QueryServer::start(HeroGame::new(), &dir);
    let planted = stress_planted(PLAY, INTRO, &dir, &server, BUG, &["--time", "120s"]);
    println!("{}", planted.report);
    assert!(planted.report.contains("wrong answer: game 1, move 1"), "{}", planted.report);
    // One case, the enemy's heroes at 3.
    let lines: Vec<&str> = planted.input.lines().collect();
    assert_eq!(lines[0], "1", "{}", planted.input);
}

#[test]
fn interact_passes_a_perfect_player_and_names_each_kind_of_failure() {
    let dir = tests::scratch_dir("hero-battle", "interact");
    let server = QueryServer::start(HeroGame::new(), &dir);
    check_interact(PLAY, INTRO, &dir, &server);
}

/// The queries `serve` must answer as `query` does.
const QUERIES: [&str; 3] = [
    "{}",
    r#"{"game": 2, "moves": ["1 1"]}"#,
    r#"{"input": "1\n10 10 10 10 3 3 3 3 3 3 3 3\n", "moves": ["1 1", "1 2"]}"#,
];

/// The page's own checks in the browser: the four heroes drawn from the board.
const PAGE: &str = r##"
def check(page):
    page.open(side="both", moves=["1 1"])
    heroes = page.page.eval_on_selector_all("[data-hero]", "els => els.map(e => e.textContent)")
    expect(len(heroes) == 4, f"four heroes: {heroes}")
    board = page.answer(["1 1"])["board"]
    for text, hp in zip(heroes, board["alice"]["hp"] + board["bob"]["hp"]):
        expect(f" {hp} HP" in text, f"{text!r} shows {hp} HP")
    expect(page.page.is_visible("[data-side='Bob'].mover"), "Bob is marked to move")
    print("hero-battle: the four heroes with their hit points, the mover marked")
    page.open(game=4, moves=["1 1"])
    page.my_turn()
    page.page.screenshot(path=SCREENSHOT)
"##;

#[test]
fn serve_answers_as_query_does_and_refuses_misuse() {
    judge::testing::page::check_serve(PLAY, &QUERIES);
}

#[test]
fn the_page_plays_in_a_real_browser() {
    let dir = tests::scratch_dir("hero-battle", "page");
    judge::testing::page::check_page(PLAY, "hero-battle", PAGE, &dir);
}
