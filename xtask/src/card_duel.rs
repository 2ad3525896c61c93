//! `cargo xtask gen card-duel` and `cargo xtask bench card-duel`: the files of
//! [`card_duel::generate`] (official-size files, every position of one O, families of
//! positions), and the benchmark, which ends with its figures as one Markdown table under a
//! line giving the date, the machine and the thread counts (the crate README's "Figures").

use engine::rng::SplitMix64;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use card_duel::generate::{self, Family, SEED};
use card_duel::{OFFICIAL_CASES, StartKey};

use crate::TaskResult;
use crate::measure::{self, BenchArgs, Contender};
use crate::play::{PlayRow, PlayRows};
use card_duel::position::DuelMove;
use games::{Notation, Rules};

/// Which file to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// `--cases` distinct positions (351,493 by default) drawn uniformly, in drawn order: the
    /// official files' shape.
    Official,
    /// Every one of the 1,440,000 positions of one O, shuffled.
    All,
    /// `--cases` positions drawn uniformly, repeats allowed.
    Uniform,
    /// `--cases` of the costliest positions: E = S = 20, full boards, full hands.
    Heavy,
    /// `--cases` positions with both players at 5 HP or less, for the reference solver.
    SmallHp,
    /// `--cases` positions with every field at an end of its range or a rule's threshold.
    Edge,
}

/// Generator options for card-duel.
#[derive(Clone, Debug, clap::Args)]
pub struct GenArgs {
    /// Which file.
    #[arg(value_enum)]
    kind: Kind,
    /// O for the whole file.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=20))]
    ops: u8,
    /// Number of cases (at most 1,440,000 for `official`, whose cases are distinct; ignored
    /// by `all`).
    #[arg(long, default_value_t = OFFICIAL_CASES as u32,
          value_parser = clap::value_parser!(u32).range(0..=1_440_000))]
    cases: u32,
    /// Seed of the generator.
    #[arg(long, default_value_t = SEED)]
    seed: u64,
}

/// Writes a generated card-duel input to stdout.
pub fn gen_to_stdout(args: &GenArgs) -> TaskResult {
    let cases = args.cases as usize;
    let drawn =
        |family| card_duel::write_input(args.ops, &generate::positions(family, cases, args.seed));
    let text = match args.kind {
        Kind::Official => generate::official_file(args.ops, cases, args.seed),
        Kind::All => generate::all_file(args.ops, args.seed),
        Kind::Uniform => drawn(Family::Uniform),
        Kind::Heavy => drawn(Family::Heavy),
        Kind::SmallHp => drawn(Family::SmallHp),
        Kind::Edge => drawn(Family::Edge),
    };
    std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| format!("cannot write: {e}"))
}

/// The official solution's published figures on an official-size file (O = 5, 351,493
/// cases), as `card-duel/problem/statement.md` reports them.
const OFFICIAL: &str = "17 s and 1.35 GB";

/// THUPC 2021's std (`esc/guldan.cpp` in `yylidiw/thupc21_pre_2` on GitHub), which a user may
/// build with `g++ -O2 -std=c++14` into the peers' folder under this name; see
/// docs/notes/card-duel-profile.md. It takes about 10 s of CPU and 1.3 GB on the
/// official-size file, the only input it is timed on.
const THUPC: &str = "card-duel-thupc";

/// Benchmarks card-duel's release binary, sweeping with two threads and with one and reading
/// off a tablebase, on the inputs listed below; prints each comparison as it goes, then the
/// figures as one Markdown table under [`measure::machine_line`]. `--quick` keeps O = 5 and
/// the official-size file.
pub fn bench(args: &BenchArgs) -> TaskResult {
    let binary = measure::build_release("card-duel")?;
    let ours = |threads: &str| {
        Contender::new(format!("card-duel ({threads} thr)"), &binary, &["-j", threads])
    };
    let contenders = [ours("2"), ours("1")];
    let mut rows = Vec::new();

    let sample = measure::write_input("card-duel-sample2.in", b"1 4\n5 14\n1 1\n1 1\n1 0\n")?;
    let title = "one case: official sample 2";
    let meds = measure::compare(title, &sample, &contenders, args.runs)?;
    rows.push(Row::file(title, &meds));
    let ops_list: &[u8] = if args.quick { &[5] } else { &[1, 5, 10, 20] };
    for &ops in ops_list {
        // The tablebase of this O, built once, then read by every single position beside
        // the sweep.
        let written = write_tablebase(&binary, ops)?;
        println!(
            "\ntablebase of O = {ops} (card-duel tablebase {ops}, 2 thr): written in {written}"
        );
        rows.push(Row {
            input: format!("writing the tablebase of O = {ops}"),
            cells: [written, dash(), dash(), dash()],
        });
        let single = [contenders[0].clone(), read_off(&binary, ops)?];
        // Every heavy position (E = S = 20, full boards and hands: 25 distinct), and 20
        // distinct positions drawn uniformly (`cargo xtask gen card-duel official --cases 20
        // --seed 7`).
        let mut heavy = generate::positions(Family::Heavy, 400, SEED);
        heavy.sort_by_key(|p| StartKey::of(p).rank());
        heavy.dedup();
        let uniform = generate::distinct_positions(20, 7);
        for (name, positions) in [("heavy", &heavy), ("uniform", &uniform)] {
            let files = positions
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let text = card_duel::write_input(ops, std::slice::from_ref(p));
                    measure::write_input(
                        &format!("card-duel-{name}-o{ops}-{i}.in"),
                        text.as_bytes(),
                    )
                })
                .collect::<Result<Vec<_>, _>>()?;
            let title = format!("{} {name} single positions, O = {ops}", files.len());
            // The median and the worst over the files of each file's median time.
            let spread = measure::latency(&title, &files, &single, args.runs)?;
            let [swept, read] = [0, 1].map(|i| {
                let (median, worst) = spread[i];
                format!("{:.1} / {}", median.as_secs_f64() * 1e3, millis(worst))
            });
            rows.push(Row { input: title, cells: [swept, dash(), read, dash()] });
        }
    }

    let official = generate::official_file(5, OFFICIAL_CASES, SEED);
    let official = measure::write_input("card-duel-official-o5.in", official.as_bytes())?;
    // The sweep with two threads and one, then the answers read off the tablebase of O = 5
    // written above, then THUPC's std when built.
    let mut files = vec![contenders[0].clone(), contenders[1].clone(), read_off(&binary, 5)?];
    let thupc = measure::peer(args, THUPC);
    if let Some(program) = &thupc {
        files.push(Contender::new("THUPC std", program, &[]));
    }
    let title = "official-size file: 351,493 distinct positions of O = 5";
    let meds = measure::compare(title, &official, &files, args.runs)?;
    println!("  official solution (published): {OFFICIAL} on an official-size file");
    let mut row = Row::file(title, &meds);
    if let Some(peer) = meds.get(3) {
        // One thread against the peer's one, in CPU time: what a loaded machine's waiting
        // for a core leaves out.
        let ratio = peer.cpu.as_secs_f64() / meds[1].cpu.as_secs_f64().max(1e-9);
        row.cells[3] = format!(
            "{}, CPU {}, {:.0} MB ({ratio:.0}x -j 1's CPU)",
            millis(peer.wall),
            millis(peer.cpu),
            peer.max_rss_kib as f64 / 1024.0
        );
    }
    rows.push(row);

    if !args.quick {
        for ops in [5, 20] {
            let all = generate::all_file(ops, SEED);
            let all = measure::write_input(&format!("card-duel-all-o{ops}.in"), all.as_bytes())?;
            let title = format!("every position of O = {ops} (1,440,000)");
            let files = [contenders[0].clone(), contenders[1].clone(), read_off(&binary, ops)?];
            let meds = measure::compare(&title, &all, &files, args.runs)?;
            rows.push(Row::file(&title, &meds));
        }
    }
    println!("\n{}", measure::machine_line(&["-j 1", "-j 2"]));
    println!("\n| input | -j 2 | -j 1 | `--tablebase`, -j 2 | THUPC's std |");
    println!("|---|---|---|---|---|");
    for Row { input, cells: [two, one, read, peer] } in &rows {
        println!("| {input} | {two} | {one} | {read} | {peer} |");
    }
    Ok(())
}

/// One line of the figures table: the input and its cells for the sweep with two threads,
/// with one, the values read off the tablebase with two, and THUPC's std.
struct Row {
    input: String,
    cells: [String; 4],
}

/// An empty cell.
fn dash() -> String {
    "-".to_owned()
}

impl Row {
    /// A file's row from the medians of [`measure::compare`] (two threads, one thread, then
    /// the tablebase if timed): time and peak memory, and with one thread how many times the
    /// two threads' time it took.
    fn file(input: &str, meds: &[measure::Sample]) -> Self {
        let cell = |s: &measure::Sample| {
            format!("{}, {:.0} MB", millis(s.wall), s.max_rss_kib as f64 / 1024.0)
        };
        let ratio = meds[1].wall.as_secs_f64() / meds[0].wall.as_secs_f64().max(1e-9);
        Self {
            input: input.to_owned(),
            cells: [
                cell(&meds[0]),
                format!("{} ({ratio:.2}x)", cell(&meds[1])),
                meds.get(2).map_or_else(dash, cell),
                dash(),
            ],
        }
    }
}

/// `41.2 ms`.
fn millis(time: Duration) -> String {
    format!("{:.1} ms", time.as_secs_f64() * 1e3)
}

/// Writes the tablebase of O = `ops` where [`read_off`] reads it, with two threads, and
/// returns how long that took: `180.3 ms`.
fn write_tablebase(binary: &Path, ops: u8) -> Result<String, String> {
    let tablebase = tablebase_path(ops)?;
    let started = Instant::now();
    let built = std::process::Command::new(binary)
        .args(["tablebase", &ops.to_string(), "-j", "2"])
        .arg(&tablebase)
        .output()
        .map_err(|e| format!("cannot run card-duel tablebase: {e}"))?;
    if !built.status.success() {
        return Err(format!(
            "card-duel tablebase {ops} failed: {}",
            String::from_utf8_lossy(&built.stderr)
        ));
    }
    Ok(millis(started.elapsed()))
}

/// Where the bench writes the tablebase of O = `ops`.
fn tablebase_path(ops: u8) -> Result<PathBuf, String> {
    Ok(measure::bench_dir()?.join(format!("card-duel-o{ops}.tablebase")))
}

/// card-duel with two threads, reading every value off the tablebase of O = `ops` that the
/// bench wrote.
fn read_off(binary: &Path, ops: u8) -> Result<Contender, String> {
    let tablebase = tablebase_path(ops)?.display().to_string();
    Ok(Contender::new("--tablebase (2 thr)", binary, &["-j", "2", "--tablebase", &tablebase]))
}

/// `cargo xtask bench play`'s rows for card-duel: uniform and heavy starts of O = 5.
pub(crate) fn play_rows(positions: usize, seed: u64) -> Result<PlayRows, String> {
    let mut rng = SplitMix64::new(seed);
    let mut made = PlayRows::default();
    // card-duel: O = 5, uniform and heavy positions, each along random games, the memo
    // cleared before every position.
    let started = Instant::now();
    let tablebase = Arc::new(card_duel::Tablebase::build(5));
    let built = started.elapsed();
    let game = card_duel::position::DuelGame::new();
    for heavy in [false, true] {
        let (mut times, mut queries) = (Vec::new(), Vec::new());
        while times.len() < positions {
            let board = |rng: &mut SplitMix64| {
                if heavy {
                    card_duel::Board::new(0, 4)
                } else {
                    card_duel::Board::all().nth(rng.below(15))
                }
            };
            let position = card_duel::Position {
                e_hp: if heavy { 20 } else { rng.range(1, 20) as u8 },
                teacher_hp: if heavy { 20 } else { rng.range(1, 20) as u8 },
                e_board: board(&mut rng).expect("a board"),
                teacher_board: board(&mut rng).expect("a board"),
                e_hand: if heavy { 3 } else { rng.range(0, 3) as u8 },
                teacher_hand: if heavy { 3 } else { rng.range(0, 3) as u8 },
            };
            let mut state = card_duel::position::State::start(5, &position);
            let input = card_duel::write_input(5, &[position]);
            let mut moves = Vec::new();
            while times.len() < positions {
                let mut oracle = card_duel::position::Oracle::new(Arc::clone(&tablebase));
                let started = Instant::now();
                let actions = oracle.actions(&state);
                times.push(started.elapsed());
                queries.push(crate::play::query(&input, 1, &moves));
                let outcomes = state.outcomes();
                let mv = if !outcomes.is_empty() {
                    DuelMove::Ping(outcomes[rng.below(outcomes.len())].0)
                } else if actions.is_empty() {
                    break;
                } else {
                    DuelMove::Action(actions[rng.below(actions.len())].0)
                };
                moves.push(game.write_move(&state, &mv));
                state = game.after(&state, &mv);
            }
        }
        let name = if heavy {
            "card-duel, O = 5, heavy starts"
        } else {
            "card-duel, O = 5, uniform starts"
        };
        let name = name.to_owned();
        made.rows.push(PlayRow { name, times, package: "card-duel", queries });
    }
    made.notes.push(format!(
        "card-duel's tablebase of O = 5, built once: {:.0} ms",
        built.as_secs_f64() * 1e3
    ));
    Ok(made)
}
