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

/// The page's railway: from station 1 (Borzou's) the tracks go to 2 and 3.
const SMALL: &str =
    "6 10\n1 0 1 0 0 0\n1 0 0 0 0 0\n0 2\n1 2\n1 3\n2 0\n2 3\n3 4\n3 5\n4 5\n5 4\n4 1\n";

/// `play` in a scratch folder, so that a file it writes unasked would be seen.
fn play_in(dir: &std::path::Path, args: &[&str], script: &str) -> String {
    use std::io::Write as _;
    let mut child = std::process::Command::new(BINARY)
        .arg("play")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("toy-train starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(script.as_bytes()).expect("play reads its script");
    drop(stdin);
    let out = child.wait_with_output().expect("toy-train ends");
    assert!(out.status.success());
    String::from_utf8(out.stdout).expect("play writes text")
}

#[test]
fn play_takes_a_number_as_a_station_and_writes_a_picture_only_when_asked() {
    let dir = tests::scratch_dir("toy-train", "play");
    let railway = tests::write_file(&dir, "railway.in", SMALL);
    // At station 1 the list is `a. 2`, `b. 3`: `2` is station 2, not the second item.
    let out = play_in(&dir, &["--case", "2", &railway], "2\n");
    assert!(out.contains("  a. 2: lose in 3\n  b. 3: win in 3\n"), "{out}");
    assert!(out.contains("walk: 1(B) -> 2(A)"), "{out}");
    // Its letter picks station 3.
    let out = play_in(&dir, &["--case", "2", &railway], "b\nquit\n");
    assert!(out.contains("walk: 1(B) -> 3(B)"), "{out}");
    let files: Vec<_> = std::fs::read_dir(&*dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(files, ["railway.in"], "play writes nothing unasked");
    let picture = dir.join("walk.dot");
    let out = play_in(&dir, &["--case", "2", "--picture", "walk.dot", &railway], "b\nquit\n");
    assert!(out.contains("written to walk.dot after each move"), "{out}");
    assert!(std::fs::read_to_string(picture).unwrap().starts_with("digraph"));
}
