//! The interactive version end to end through the binary: `interact` and `stress
//! --interactive` against a player program (judge's `testing::interactive`) that asks its
//! moves of this process.

use card_duel::position::DuelGame;
use judge::testing::interactive::{QueryServer, check_interact, stress_planted};

mod player;
use player::{BUG, INTRO};

const BINARY: &str = env!("CARGO_BIN_EXE_card-duel");

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

/// The queries `serve` must answer as `query` does.
const QUERIES: [&str; 2] = ["{}", r#"{"moves": ["play"]}"#];

/// The page's own checks in the browser: both players drawn, chance's moves offered.
const PAGE: &str = r##"
def check(page):
    page.open(side="both")
    answer = page.answer()
    for player, drawn in zip(answer["board"]["players"], ["E", "the teacher"]):
        text = page.page.text_content(f"[data-player='{drawn}']")
        expect(f"{player['hp']} HP" in text, f"{drawn}: {text!r}")
    if any(m["move"] == "play" for m in answer["moves"]):
        page.click("play")
        page.settle(moves=1)
        chances = page.page.eval_on_selector_all("button.chance", "els => els.map(e => e.dataset.move)")
        expect(chances, "chance's moves are listed after a card is played")
        expect(page.page.is_visible("#roll"), "the roll button is offered")
        page.page.click("#roll")
        page.settle(moves=2)
        print(f"card-duel: {len(chances)} ping targets listed and rolled")
    print("card-duel: both players drawn with their hit points")
    page.open()
    page.my_turn()
    page.page.screenshot(path=SCREENSHOT)
"##;

#[test]
fn serve_answers_as_query_does_and_refuses_misuse() {
    judge::testing::page::check_serve(BINARY, &QUERIES);
}

#[test]
fn the_page_plays_in_a_real_browser() {
    let dir = tests::scratch_dir("card-duel", "page");
    judge::testing::page::check_page(BINARY, "card-duel", PAGE, &dir);
}

/// The `chance:` lines of a `play` transcript.
fn pings(out: &str) -> Vec<&str> {
    out.lines().flat_map(|l| l.split("your move> ")).filter(|l| l.starts_with("chance: ")).collect()
}

#[test]
fn undo_in_play_restores_chance_as_it_was_and_either_side_is_played() {
    // E plays a card (three pings), takes it back, and plays it again: the same pings.
    let ran = tests::run_binary(BINARY, &["play"], b"play\nundo\nplay\nquit\n");
    let out = String::from_utf8(ran.stdout).unwrap();
    assert!(ran.status.success() && out.contains("undone"), "{out}");
    let drawn = pings(&out);
    assert_eq!(drawn.len(), 6, "{out}");
    assert_eq!(drawn[..3], drawn[3..], "{out}");
    // Another seed draws other pings: the test above is not passing by luck.
    let ran = tests::run_binary(BINARY, &["play", "--seed", "7"], b"play\nquit\n");
    let other = String::from_utf8(ran.stdout).unwrap();
    assert_ne!(pings(&other), drawn[..3], "{other}");
    // The teacher's side, against E's perfect play.
    let script = "a\n".repeat(40);
    let ran = tests::run_binary(BINARY, &["play", "--side", "Teacher"], script.as_bytes());
    let out = String::from_utf8(ran.stdout).unwrap();
    assert!(out.contains("you play the teacher") && out.contains("E plays "), "{out}");
    assert!(out.contains("Game over: "), "{out}");
}
