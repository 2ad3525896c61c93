//! The card-duel binary as a user meets it: judge input on stdin or from a file, one probability
//! per line, and for bad input exit code 2, nothing on stdout and one located error line.

use std::process::Output;

const BINARY: &str = env!("CARGO_BIN_EXE_card-duel");

fn card_duel(args: &[&str], stdin: &[u8]) -> Output {
    tests::run_binary(BINARY, args, stdin)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

const SAMPLE_2: &[u8] = b"1 4\n5 14\n1 1\n1 1\n1 0\n";

#[test]
fn solves_stdin_and_files() {
    let out = card_duel(&[], SAMPLE_2);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "0.041879441\n");
    assert!(out.stderr.is_empty());

    let out = tests::run_binary_on_file(BINARY, &["--threads", "1"], b"1 5\n1 1\n0\n0\n0 1\n");
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "0.500000000\n");
}

#[test]
fn reference_and_explain_modes_agree_with_the_fast_solver() {
    let reference = card_duel(&["--solver", "reference"], SAMPLE_2);
    assert_eq!(text(&reference.stdout), "0.041879441\n");
    let explained = text(&card_duel(&["--explain", "-j", "2"], SAMPLE_2).stdout);
    assert!(explained.starts_with("case 1: 0.041879441\n  best: face with a 1-HP minion\n"));
    assert!(explained.contains("  face with a 1-HP minion: 0.041879441\n"));
}

#[test]
fn bad_input_exits_2_with_one_located_error_line() {
    for (input, expected) in [
        ("1 0\n", "error: line 1, column 3: expected O in 1..=20, found \"0\""),
        (
            "1 5\n0 1\n0\n0\n0 0\n",
            "error: line 2, column 1: expected E's HP in 1..=20, found \"0\"",
        ),
        (
            "1 5\n3 3\n5 1 1 1 1 1\n0\n0 0\n",
            "error: line 3, column 1: expected the teacher's minion count in 0..=4, found \"5\"",
        ),
        (
            "1 5\n3 3\n1 3\n0\n0 0\n",
            "error: line 3, column 3: expected a minion's HP in 1..=2, found \"3\"",
        ),
        (
            "1 5\n3 3\n0\n0\n0 4\n",
            "error: line 5, column 3: expected E's hand size in 0..=3, found \"4\"",
        ),
        (
            "2 5\n3 3\n0\n0\n0 0\n3",
            "error: line 6, column 2: expected the teacher's HP in 1..=20, found end of input",
        ),
        (
            "",
            "error: line 1, column 1: expected the number of cases T in 0..=10000000, found end of input",
        ),
    ] {
        tests::assert_rejects(BINARY, &[], input.as_bytes(), expected);
    }
}

#[test]
fn unreadable_files_and_bad_arguments_exit_2() {
    let out = card_duel(&["/nonexistent/card-duel.in"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).starts_with("error: cannot read /nonexistent/card-duel.in: "));

    let out = card_duel(&["--threads", "0"], SAMPLE_2);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_tablebase_answers_as_the_sweep_does_and_refuses_what_it_cannot_answer() {
    let dir = tests::scratch_dir("card-duel", "tablebase");
    let folder = dir.display().to_string();
    let tablebase = dir.join("o3.tb").display().to_string();
    // Written into a folder, it is named by its O.
    let built = card_duel(&["tablebase", "3", &folder, "-j", "2"], b"");
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert!(text(&built.stdout).starts_with(&format!(
        "wrote {tablebase}: the tablebase of O = 3, 1440000 positions, built in "
    )));
    assert_eq!(std::fs::metadata(&tablebase).unwrap().len(), card_duel::tablebase::FILE_LEN);
    // Nothing is left aside.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);

    // 2,000 distinct positions, a heavy one and the samples (with O = 3): the same bytes.
    let mut positions = card_duel::generate::distinct_positions(2000, 11);
    positions.extend(card_duel::generate::positions(card_duel::generate::Family::Heavy, 3, 5));
    let file = card_duel::write_input(3, &positions);
    let sweep = card_duel(&[], file.as_bytes());
    for threads in ["1", "2"] {
        let read = card_duel(&["--tablebase", &tablebase, "-j", threads], file.as_bytes());
        assert!(read.status.success(), "{}", text(&read.stderr));
        assert_eq!(text(&read.stdout), text(&sweep.stdout));
    }
    let sample_2 = card_duel(&["--tablebase", &tablebase], b"1 3\n5 14\n1 1\n1 1\n1 0\n");
    assert_eq!(text(&sample_2.stdout), text(&card_duel(&[], b"1 3\n5 14\n1 1\n1 1\n1 0\n").stdout));
    // A folder stands for its tablebase of the input's O.
    let read = card_duel(&["--tablebase", &folder], file.as_bytes());
    assert!(read.status.success(), "{}", text(&read.stderr));
    assert_eq!(text(&read.stdout), text(&sweep.stdout));
    tests::assert_rejects(
        BINARY,
        &["--tablebase", &folder],
        SAMPLE_2,
        &format!(
            "error: cannot use the tablebases in {folder}: none for the input's O = 4: build it with `card-duel tablebase 4 {folder}`, or add --build-missing"
        ),
    );
    // --build-missing builds the one of the input's O into the folder first, then reads it.
    let building = dir.join("building");
    std::fs::create_dir(&building).unwrap();
    let building = building.display().to_string();
    let o2 = card_duel::write_input(2, &positions[..50]);
    let swept = card_duel(&[], o2.as_bytes());
    for _ in 0..2 {
        let read = card_duel(&["--tablebase", &building, "--build-missing"], o2.as_bytes());
        assert!(read.status.success(), "{}", text(&read.stderr));
        assert_eq!(text(&read.stdout), text(&swept.stdout));
        let built = std::fs::read_dir(&building).unwrap().map(|e| e.unwrap().file_name());
        assert_eq!(built.collect::<Vec<_>>(), ["o2.tb"]);
    }
    tests::assert_rejects(
        BINARY,
        &["--tablebase", &folder],
        b"1 x\n",
        "error: line 1, column 3: expected O in 1..=20, found \"x\"",
    );

    // Another O points at O; a malformed input is reported as without a tablebase.
    tests::assert_rejects(
        BINARY,
        &["--tablebase", &tablebase],
        SAMPLE_2,
        "error: line 1, column 3: expected O = 3 (the tablebase's), found \"4\": build one for O = 4",
    );
    tests::assert_rejects(
        BINARY,
        &["--tablebase", &tablebase],
        b"1 3\n5 0\n0\n0\n0 0\n",
        "error: line 2, column 3: expected the teacher's HP in 1..=20, found \"0\"",
    );

    // Damaged, foreign and missing files, and what a tablebase cannot do. A damaged block is
    // found when a few positions need it, and by any file large enough to read it all.
    let position = b"1 3\n5 14\n1 1\n1 1\n1 0\n";
    let rank = card_duel::StartKey::of(
        &card_duel::parse::position(&mut engine::input::Input::new(b"5 14\n1 1\n1 1\n1 0\n"))
            .unwrap(),
    )
    .rank();
    let block = rank / card_duel::tablebase::BLOCK_VALUES;
    let mut bytes = std::fs::read(&tablebase).unwrap();
    let at = (card_duel::tablebase::FILE_LEN as usize) - 8 * (1_440_000 - rank);
    bytes[at] ^= 1;
    let damaged = dir.join("damaged.tb").display().to_string();
    std::fs::write(&damaged, &bytes).unwrap();
    let in_block = format!(
        "error: cannot use the tablebase {damaged}: block {block} of the values does not match its checksum: the file is damaged"
    );
    tests::assert_rejects(BINARY, &["--tablebase", &damaged], position, &in_block);
    tests::assert_rejects(BINARY, &["--tablebase", &damaged], file.as_bytes(), &in_block);
    let few = card_duel::write_input(3, &positions[..10]);
    let read = card_duel(&["--tablebase", &damaged], few.as_bytes());
    assert_eq!(text(&read.stdout), text(&card_duel(&[], few.as_bytes()).stdout));
    bytes[40] ^= 1;
    std::fs::write(&damaged, &bytes).unwrap();
    tests::assert_rejects(
        BINARY,
        &["--tablebase", &damaged],
        position,
        &format!(
            "error: cannot use the tablebase {damaged}: the block checksums do not match the header's checksum: the file is damaged"
        ),
    );
    let missing = dir.join("missing.tb").display().to_string();
    let out = card_duel(&["--tablebase", &missing], SAMPLE_2);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with(&format!("error: cannot use the tablebase {missing}: ")));
    let input = dir.join("input.in").display().to_string();
    std::fs::write(&input, SAMPLE_2).unwrap();
    tests::assert_rejects(
        BINARY,
        &["--tablebase", &input],
        SAMPLE_2,
        &format!(
            "error: cannot use the tablebase {input}: not a card-duel tablebase (it does not start with \"card-duel tablebase\")"
        ),
    );
    for flag in ["--explain", "--solver=reference"] {
        let out = card_duel(&["--tablebase", &tablebase, flag], SAMPLE_2);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(text(&out.stderr).contains("cannot be used with"), "{flag}");
    }
    let out = card_duel(&["tablebase", "21", &tablebase], b"");
    assert_eq!(out.status.code(), Some(2));
    let out =
        card_duel(&["tablebase", "3", &dir.join("no/such/folder.tb").display().to_string()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("error: cannot write "));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every example the documents show of this binary (blocks marked `<!-- example -->`) is
/// what it prints today (`tests::examples`).
#[test]
fn the_documents_examples_are_what_it_prints() {
    let checked = tests::examples::assert_examples(BINARY);
    assert!(checked >= 2, "only {checked} examples of card-duel in the documents");
}
