//! The interactive version end to end through the binary: `interact` and `stress
//! --interactive` against a player program (judge's `testing::interactive`) that asks its
//! moves of this process.

use judge::testing::interactive::{QueryServer, check_interact, stress_planted};
use toy_train::position::TrainGame;

mod player;
use player::{BUG, INTRO};

const BINARY: &str = env!("CARGO_BIN_EXE_toy-train");

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

/// The queries `serve` must answer as `query` does.
const QUERIES: [&str; 3] =
    ["{}", r#"{"game": 2, "moves": ["1"]}"#, r#"{"game": 2, "moves": ["0"]}"#];

/// The page's own checks in the browser: the railway drawn, a track clicked.
const PAGE: &str = r##"
RAILWAY = "6 10\n1 0 1 0 0 0\n1 0 0 0 0 0\n0 2\n1 2\n1 3\n2 0\n2 3\n3 4\n3 5\n4 5\n5 4\n4 1\n"

def check(page):
    page.open(side="both", input=RAILWAY)
    stations = page.page.eval_on_selector_all("[data-station]", "els => els.length")
    expect(stations == 6, f"six stations drawn: {stations}")
    board = page.answer([], 1, RAILWAY)["board"]
    fills = page.page.eval_on_selector_all("[data-station]", "els => els.map(e => e.firstChild.getAttribute('fill'))")
    for s, fill in enumerate(fills):
        expect((fill == "#cfe0fb") == board["arezou_wins"][s], f"station {s}'s region: {fill}")
    tracks = page.page.eval_on_selector_all(".track.target", "els => els.map(e => e.dataset.track)")
    expect(sorted(tracks) == ["0>2"], f"the tracks out of the train's station: {tracks}")
    expect(board["arezou_wins"] == [True, False, True, False, False, False], f"regions: {board}")
    page.page.dispatch_event(".track-hit", "click")
    page.settle(moves=1)
    expect(page.state()["moves"] == ["2"], f"the clicked track moved the train: {page.state()}")
    print("toy-train: the railway drawn with both regions; a clicked track moves the train")
    page.open(input=RAILWAY, game=4)
    page.my_turn()
    page.page.screenshot(path=SCREENSHOT)
"##;

#[test]
fn serve_answers_as_query_does_and_refuses_misuse() {
    judge::testing::page::check_serve(BINARY, &QUERIES);
}

#[test]
fn the_page_plays_in_a_real_browser() {
    let dir = tests::scratch_dir("toy-train", "page");
    judge::testing::page::check_page(BINARY, "toy-train", PAGE, &dir);
}
